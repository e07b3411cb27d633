export { activeWindow } from './blackout.js';
export type { NotificationEndpoints } from './channels/driver.js';
export { notificationsRoutes } from './notifications.routes.js';
export { NotificationsService, type NotificationsDeps } from './notifications.service.js';
export { createNotificationsStore } from './notifications.store.js';
