#!/usr/bin/env node
// Read model rebuild, a page at once against a row at a time: the people copies of social,
// timelines and notifications rebuilt from the auth service's replay with their `applyPage` (one
// multi-row upsert per page, the profile version in its condition) and again with it taken away
// (the rebuild then applies each row with `apply`, a page of one), for READ_MODEL_PAGES_PEOPLE
// (10,000) people: into an empty copy, then over the full copy (every row replayed, none newer).
//
//   npx tsc -b   (the platform and the services must be built)
//   node bench/read-model-pages.mjs
//
// The rebuild runs in this process (rebuildReadModel, as serveReadModelRebuild runs it on a
// replica), against the real auth service's replay on the machine's NATS; scratch databases and
// the bus prefix are removed at the end, also on Ctrl-C (lib/cleanup.mjs). Two shared cores:
// noisy figures, compare runs on one machine only. Env: ADMIN_DATABASE_URL, NATS_URL,
// READ_MODEL_PAGES_PEOPLE.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createEventBus, createLogger, EventWriter, openDatabase, rebuildReadModel } from '@timeliner/platform';
import { startAuthService } from '@timeliner/auth';
import { forgetAccount } from '../services/social/dist/follows/follow-events.js';
import { peopleReadModel as socialPeople } from '../services/social/dist/users/user-rebuild.js';
import { schema as socialSchema } from '../services/social/dist/schema.js';
import { peopleReadModel as timelinesPeople } from '../services/timelines/dist/users/user-rebuild.js';
import { schema as timelinesSchema } from '../services/timelines/dist/schema.js';
import { peopleReadModel as notificationsPeople } from '../services/notifications/dist/users/user-rebuild.js';
import { schema as notificationsSchema } from '../services/notifications/dist/schema.js';
import { cleanup, interrupted, onCleanup, removeStreams, scratchDatabase } from './lib/cleanup.mjs';

const env = process.env;
const PEOPLE = env.READ_MODEL_PAGES_PEOPLE ? Number(env.READ_MODEL_PAGES_PEOPLE) : 10_000;
const ADMIN_URL = env.ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = env.NATS_URL || 'nats://127.0.0.1:4222';
const tag = randomBytes(4).toString('hex');
const PREFIX = `rmpages${tag}`;
const logger = createLogger('read-model-pages-bench', env.LOG_LEVEL ?? 'warn');
const databaseUrl = (name) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

const copies = [
  { name: 'social/people', schema: socialSchema, model: (bus) => socialPeople(bus, (manager, id) => forgetAccount(new EventWriter(), manager, id, `read-model-rebuild:${id}`)) },
  { name: 'timelines/people', schema: timelinesSchema, model: (bus) => timelinesPeople(bus) },
  { name: 'notifications/people', schema: notificationsSchema, model: (bus) => notificationsPeople(bus) },
];

removeStreams(NATS_URL, PREFIX);
const bus = await createEventBus({ natsUrl: NATS_URL, prefix: PREFIX, name: 'read-model-pages-bench', logger });
onCleanup("the bench's bus connection", () => bus.close());
try {
  const authName = `rmpages_auth_${tag}`;
  await scratchDatabase(ADMIN_URL, authName);
  const auth = await startAuthService({ bus, logger, identitySecret: randomBytes(32).toString('hex'), port: 0, host: '127.0.0.1', databaseUrl: databaseUrl(authName) });
  onCleanup('the auth service', () => auth.close());
  const authDb = new pg.Client({ connectionString: databaseUrl(authName) });
  await authDb.connect();
  await authDb.query(
    `INSERT INTO auth.users (id, username, email, password_hash, display_name, bio, profile_version)
     SELECT gen_random_uuid(), 'person_' || n, 'person_' || n || '@example.com', 'not-a-hash', 'Person ' || n, 'Bio of person ' || n, 1
       FROM generate_series(1, $1) AS n`,
    [PEOPLE],
  );
  await authDb.query('VACUUM ANALYZE auth.users');
  await authDb.end();

  const results = [];
  for (const copy of copies) {
    const name = `rmpages_${copy.name.split('/')[0]}_${tag}`;
    await scratchDatabase(ADMIN_URL, name);
    const dataSource = await openDatabase({ url: databaseUrl(name), schema: copy.schema.name, entities: copy.schema.entities, migrations: copy.schema.migrations, logger });
    onCleanup(`the ${copy.name} database connection`, () => dataSource.destroy(), { first: true });
    const paged = copy.model(bus);
    const rowByRow = { ...paged, applyPage: undefined };
    for (const [way, model] of [
      ['a row at a time', rowByRow],
      ['a page at once', paged],
    ]) {
      await dataSource.query('DELETE FROM users');
      const empty = await rebuildReadModel(dataSource, model);
      const full = await rebuildReadModel(dataSource, model);
      const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM users');
      if (n !== PEOPLE) process.exitCode = 1;
      results.push({ copy: copy.name, way, empty, full, rows: n });
      console.log(`${copy.name} ${way}: from empty ${empty.rate.toFixed(0)} rows/s, over the full copy ${full.rate.toFixed(0)} rows/s, ${n} rows after`);
    }
  }
  console.log(`\n| copy | apply | from empty: rows/s (s) | over the full copy: rows/s (s) | rows after |`);
  console.log('|---|---|---|---|---|');
  for (const { copy, way, empty, full, rows } of results) {
    console.log(`| ${copy} | ${way} | ${Math.round(empty.rate)} (${empty.elapsedSeconds.toFixed(1)} s) | ${Math.round(full.rate)} (${full.elapsedSeconds.toFixed(1)} s) | ${rows} |`);
  }
  console.log(`${PEOPLE} people; 2 shared cores: noisy figures`);
} catch (error) {
  if (!interrupted()) {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  await cleanup();
}
