export { updatesRoutes } from './updates.routes.js';
export {
  UpdatesService,
  type UpdateAlertsPort,
  type UpdatesRuntime,
  type ImageCheck,
  type RecreateResult,
} from './updates.service.js';
export { createUpdatesStore } from './updates.store.js';
