import { mediaEntities } from './entities.js';
import { mediaMigrations } from './migrations/index.js';

/** The media service's own Postgres schema: its tables and the migrations that build them. */
export const schema = {
  name: 'media',
  entities: mediaEntities,
  migrations: mediaMigrations,
};
