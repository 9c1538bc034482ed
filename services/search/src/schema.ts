import { searchEntities } from './entities.js';
import { searchMigrations } from './migrations/index.js';

/** The search service's own Postgres schema: its read model and the migrations that build it. */
export const schema = {
  name: 'search',
  entities: searchEntities,
  migrations: searchMigrations,
};
