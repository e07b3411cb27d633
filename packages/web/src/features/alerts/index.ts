export { AlertsPage } from './components/alerts-page';
export { AlertRulesPage } from './components/alert-rules-page';
