export { apiKeysRoutes } from './api-keys.routes.js';
export { ApiKeysService, type ApiKeysPorts } from './api-keys.service.js';
export { createApiKeysStore } from './api-keys.store.js';
