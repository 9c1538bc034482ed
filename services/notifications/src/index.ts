export { NotificationsConfig } from './notifications.config.js';
export { schema as notificationsSchema } from './schema.js';
export { startNotificationsService, type NotificationsServiceOptions } from './service.js';
export { loadOrCreateVapidKeys, type VapidKeys } from './push/vapid.js';
