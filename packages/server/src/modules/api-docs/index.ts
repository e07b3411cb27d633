export { apiDocsRoutes } from './api-docs.routes.js';
export { registerOpenApi } from './openapi.js';
