import { authEntities } from './entities.js';
import { authMigrations } from './migrations/index.js';

/** The auth service's own Postgres schema: its tables and the migrations that build them. */
export const schema = {
  name: 'auth',
  entities: authEntities,
  migrations: authMigrations,
};
