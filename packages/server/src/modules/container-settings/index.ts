export { ContainerSettings } from './container-settings.cache.js';
export { containerSettingsRoutes } from './container-settings.routes.js';
export { ContainerSettingsService } from './container-settings.service.js';
export {
  createContainerSettingsStore,
  type ContainerSettingsRow,
} from './container-settings.store.js';
export { containerTags, derivedTags } from './container-tags.js';
