export { HostsPage } from './components/hosts-page';
