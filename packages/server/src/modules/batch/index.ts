export { batchRoutes } from './batch.routes.js';
export { BatchService } from './batch.service.js';
export { createBatchStore } from './batch.store.js';
