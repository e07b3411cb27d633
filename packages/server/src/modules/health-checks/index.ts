export { HealthChecker, type CheckerOptions, type HealthAlertPort } from './checker.js';
export type { ProbeAt } from './check-runner.js';
export { healthChecksRoutes } from './health-checks.routes.js';
export { HealthChecksService } from './health-checks.service.js';
export { createHealthChecksStore } from './health-checks.store.js';
export { probe, type ProbeResult } from '@berth/agent/http-probe';
export { RestartGuard } from './restart-guard.js';
