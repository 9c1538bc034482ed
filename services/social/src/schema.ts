import { socialEntities } from './entities.js';
import { socialMigrations } from './migrations/index.js';

/** The social service's own Postgres schema: its tables and the migrations that build them. */
export const schema = {
  name: 'social',
  entities: socialEntities,
  migrations: socialMigrations,
};
