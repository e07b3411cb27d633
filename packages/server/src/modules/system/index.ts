export { systemRoutes } from './system.routes.js';
export { readVersion } from './version.js';
