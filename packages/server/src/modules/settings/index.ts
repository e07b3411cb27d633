export { createPreferencesStore } from './preferences.store.js';
export { preferencesRoutes } from './preferences.routes.js';
export { PreferencesService } from './preferences.service.js';
export { createSettingsStore } from './settings.store.js';
export { settingsRoutes } from './settings.routes.js';
export { SettingsService } from './settings.service.js';
