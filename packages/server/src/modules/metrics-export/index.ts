export {
  metricsExportRoutes,
  metricsRoute,
  observeRequestDurations,
} from './metrics-export.routes.js';
export {
  MetricsExportService,
  PROMETHEUS_SETTINGS_KEY,
  type MetricsExportDeps,
} from './metrics-export.service.js';
