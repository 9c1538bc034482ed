import { notificationsEntities } from './entities.js';
import { notificationsMigrations } from './migrations/index.js';

/** The notifications service's own Postgres schema: its tables and the migrations that build them. */
export const schema = {
  name: 'notifications',
  entities: notificationsEntities,
  migrations: notificationsMigrations,
};
