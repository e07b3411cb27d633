export { alertsRoutes } from './alerts.routes.js';
export { AlertsService, type AlertsDeps } from './alerts.service.js';
export { createAlertsStore, type AlertCounts, type AlertRow } from './alerts.store.js';
export type { Signal, SignalKind } from './engine/evaluator.js';
export { LoggingNotifier, type NotifyPort } from './engine/notify.js';
export type { HostFacts } from './engine/selectors.js';
export { createRulesStore } from './rules.store.js';
