export { AutoRestarter } from './auto-restart.js';
export { ContainerLogsService } from './container-logs.js';
export { containersRoutes } from './containers.routes.js';
export { ContainersService } from './containers.service.js';
