export { metricsHistoryRoutes } from './metrics-history.routes.js';
export { MetricsHistoryService, type MetricsHistoryDeps } from './metrics-history.service.js';
export { createMetricsHistoryStore, type MetricsHistoryStore } from './metrics-history.store.js';
export type { MaintenanceReport } from './maintenance.js';
export { DEFAULT_RETENTION, retentionFromSettings, type HistoryRetention } from './tiers.js';
export {
  createWindowMeans,
  type WindowGauge,
  type WindowMean,
  type WindowQuery,
} from './window-means.js';
