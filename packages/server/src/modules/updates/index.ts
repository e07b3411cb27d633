export { updatesRoutes } from './updates.routes.js';
export {
  UpdatesService,
  type UpdateAlertsPort,
  type UpdatesRuntime,
  type ImageCheck,
  type RecreateResult,
} from './updates.service.js';
export { createUpdatesStore } from './updates.store.js';
// The images module pulls by reference with the same progress and registry credentials.
export { PullProgress, type LayerProgress } from './pull-progress.js';
export { parseImageRef } from './registry.js';
