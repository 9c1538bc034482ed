import { timelinesEntities } from './entities.js';
import { timelinesMigrations } from './migrations/index.js';

/** The timelines service's own Postgres schema: its tables and the migrations that build them. */
export const schema = {
  name: 'timelines',
  entities: timelinesEntities,
  migrations: timelinesMigrations,
};
