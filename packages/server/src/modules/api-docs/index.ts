export { apiDocsRoutes } from './api-docs.routes.js';
export { registerOpenApi, type OpenApi } from './openapi.js';
