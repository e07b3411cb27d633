export {
  DEFAULT_RESTART_WINDOW,
  overBudgetText,
  RestartBudgets,
  type BudgetRefusal,
  type RestartWindow,
} from './restart-budget.js';
export { Restarter, type AutomaticOutcome, type RestarterDeps } from './restarter.js';
