export { alertsRoutes } from './alerts.routes.js';
export { AlertsService } from './alerts.service.js';
export { createAlertsStore, type AlertCounts, type AlertRow } from './alerts.store.js';
