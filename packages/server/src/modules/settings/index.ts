export { createPreferencesStore } from './preferences.store.js';
export { preferencesRoutes } from './preferences.routes.js';
export { PreferencesService } from './preferences.service.js';
export { createSettingsStore } from './settings.store.js';
export { settingsRoutes } from './settings.routes.js';
export { SettingsService, type ReleaseSource } from './settings.service.js';
export { createUpgradeNoticeStore } from './upgrade-notice.store.js';
export { UpgradeNoticeService } from './upgrade-notice.service.js';
