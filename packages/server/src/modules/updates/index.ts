export { updatesRoutes } from './updates.routes.js';
export { UpdatesService } from './updates.service.js';
export { createUpdatesStore } from './updates.store.js';
