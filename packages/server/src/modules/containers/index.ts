export { ContainerSettings } from './container-settings.js';
export { containersRoutes } from './containers.routes.js';
export { ContainersService } from './containers.service.js';
export { createContainersStore } from './containers.store.js';
export { ContainerSettingsService } from './container-settings.service.js';
export { AutoRestarter } from './auto-restart.js';
export { ContainerLogsService } from './container-logs.js';
