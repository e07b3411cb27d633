export { networksRoutes } from './networks.routes.js';
export { NetworksService, type NetworksDeps } from './networks.service.js';
