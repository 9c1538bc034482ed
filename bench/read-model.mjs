#!/usr/bin/env node
// Read model rebuild benchmark: how long the search, social and notifications services take to
// rebuild their timelines from the timelines service's replay, and search, social, timelines and
// notifications their people from the auth service's
// (`npm run read-model -- rebuild <service> --model <model>`), and at what rate, for
// READ_MODEL_BENCH_TIMELINES (100,000) timelines and READ_MODEL_BENCH_PEOPLE (100,000) people.
//
//   npx tsc -b   (the platform, timelines and search services must be built)
//   node bench/read-model.mjs
//
// Steps:
//   1. two scratch databases (CREATE DATABASE on ADMIN_DATABASE_URL) and a unique BUS_PREFIX; the
//      auth and timelines services and the consumers of READ_MODEL_BENCH_RUNS
//      (search:timelines,social:timelines,search:people by default; also social:people,
//      timelines:people, notifications:people, notifications:timelines) in this process on the
//      machine's NATS;
//   2. straight into the timelines schema with generate_series: the timelines (90% public and
//      published, titles with a hashtag, 2,000 creators), each with revision 1 as if its
//      snapshot had been published long ago, and the people straight into the auth schema
//      (nothing is on the stream: the consumers know none of them);
//   3. per run, one after the other: the command itself, as a child process, timed from its
//      start to its exit (its progress lines are printed as they come), from the empty copy;
//   4. the same again over the full copy (every row replayed, none newer: nothing written);
//   5. everything is removed: services, databases, the prefix's NATS streams, the mail dir; also when
//      the bench is stopped with Ctrl-C or SIGTERM (lib/cleanup.mjs).
//
// The machine's two cores are shared with whatever else runs: the figures are noisy, compare runs
// on one machine only. Env: ADMIN_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
// NATS_URL (nats://127.0.0.1:4222), READ_MODEL_BENCH_TIMELINES, READ_MODEL_BENCH_PEOPLE,
// READ_MODEL_BENCH_RUNS.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createEventBus, createLogger, createWorkQueue, FileMailSender } from '@timeliner/platform';
import { startAuthService } from '@timeliner/auth';
import { loadOrCreateVapidKeys, startNotificationsService } from '@timeliner/notifications';
import { startSearchService } from '@timeliner/search';
import { startSocialService } from '@timeliner/social';
import { startTimelinesService } from '@timeliner/timelines';
import { cleanup, interrupted, onCleanup, removeDir, removeStreams, scratchDatabase, stopOnCleanup } from './lib/cleanup.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const TIMELINES = env.READ_MODEL_BENCH_TIMELINES ? Number(env.READ_MODEL_BENCH_TIMELINES) : 100_000;
const ADMIN_URL = env.ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = env.NATS_URL || 'nats://127.0.0.1:4222';
const tag = randomBytes(4).toString('hex');
const PREFIX = `rmbench${tag}`;
const PEOPLE = env.READ_MODEL_BENCH_PEOPLE ? Number(env.READ_MODEL_BENCH_PEOPLE) : 100_000;
const RUNS = (env.READ_MODEL_BENCH_RUNS || 'search:timelines,social:timelines,search:people').split(',').map((run) => {
  const [service, model] = run.split(':');
  return { service, model };
});
// The timelines service is the producer of timelines and runs anyway: its own copies need no second one.
const SERVICES = [...new Set(RUNS.map((run) => run.service))].filter((service) => service !== 'timelines');
const starters = {
  search: startSearchService,
  social: startSocialService,
  notifications: async (options) => {
    const workQueue = await createWorkQueue({ natsUrl: NATS_URL, prefix: PREFIX, logger });
    onCleanup('the notifications work queue', () => workQueue.close());
    return startNotificationsService({ ...options, workQueue, vapid: await loadOrCreateVapidKeys(mailDir) });
  },
};
const tables = {
  'search:timelines': 'search.timelines',
  'social:timelines': 'social.feed_timelines',
  'search:people': 'search.users',
  'social:people': 'social.users',
  'timelines:people': 'timelines.users',
  'notifications:people': 'notifications.users',
  'notifications:timelines': 'notifications.timelines',
};
const logger = createLogger('read-model-bench', env.LOG_LEVEL ?? 'warn');

const databaseUrl = (name) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};
/** Runs the command; resolves with its wall time in seconds and its last progress line. */
function rebuild(service, model) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'scripts/read-model.mjs'), 'rebuild', service, '--model', model], {
      env: { ...env, NATS_URL, BUS_PREFIX: PREFIX },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    stopOnCleanup(child, `read-model rebuild ${service} ${model}`);
    let last = '';
    child.stdout.on('data', (chunk) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        console.log(`  | ${line}`);
        last = line;
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ seconds: (performance.now() - started) / 1000, last }) : reject(new Error(`read-model exited with ${code}`))));
  });
}

const names = { auth: `rmbench_auth_${tag}`, timelines: `rmbench_timelines_${tag}`, ...Object.fromEntries(SERVICES.map((service) => [service, `rmbench_${service}_${tag}`])) };
const mailDir = await mkdtemp(join(tmpdir(), 'rmbench-mail-'));
removeDir(mailDir);
for (const name of Object.values(names)) await scratchDatabase(ADMIN_URL, name);
removeStreams(NATS_URL, PREFIX);
const bus = await createEventBus({ natsUrl: NATS_URL, prefix: PREFIX, name: 'read-model-bench', logger });
onCleanup('the bench\'s bus connection', () => bus.close());
const secret = randomBytes(32).toString('hex');
const common = { bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
try {
  const auth = await startAuthService({ ...common, databaseUrl: databaseUrl(names.auth), mail: new FileMailSender({ dir: mailDir }) });
  onCleanup('the auth service', () => auth.close());
  const timelines = await startTimelinesService({ ...common, databaseUrl: databaseUrl(names.timelines), mail: new FileMailSender({ dir: mailDir }) });
  onCleanup('the timelines service', () => timelines.close());
  const db = new pg.Client({ connectionString: databaseUrl(names.timelines) });
  await db.connect();
  let seeded = performance.now();
  await db.query(
    `INSERT INTO timelines.timelines (id, title, description, creator_id, creator_name, is_public, visibility, status, views, likes_count, comments_count, revision)
     SELECT gen_random_uuid(), 'Timeline ' || n || ' #tag' || (n % 500), 'About timeline ' || n, c.id, 'Creator ' || (n % 2000), n % 10 <> 0,
            CASE WHEN n % 10 = 0 THEN 'private' ELSE 'public' END, CASE WHEN n % 10 = 0 THEN 'draft' ELSE 'published' END, n % 1000, n % 50, n % 20, 1
       FROM generate_series(1, $1) AS n
       JOIN (SELECT i, gen_random_uuid() AS id FROM generate_series(0, 1999) AS i) c ON c.i = n % 2000`,
    [TIMELINES],
  );
  await db.query('VACUUM ANALYZE timelines.timelines');
  await db.end();
  console.log(`seeded ${TIMELINES} timelines in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  seeded = performance.now();
  const authDb = new pg.Client({ connectionString: databaseUrl(names.auth) });
  await authDb.connect();
  await authDb.query(
    `INSERT INTO auth.users (id, username, email, password_hash, display_name, bio)
     SELECT gen_random_uuid(), 'person_' || n, 'person_' || n || '@example.com', 'not-a-hash', 'Person ' || n, 'Bio of person ' || n
       FROM generate_series(1, $1) AS n`,
    [PEOPLE],
  );
  await authDb.query('VACUUM ANALYZE auth.users');
  await authDb.end();
  console.log(`seeded ${PEOPLE} people in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  for (const service of SERVICES) {
    const consumer = await starters[service]({ ...common, databaseUrl: databaseUrl(names[service]) });
    onCleanup(`the ${service} service`, () => consumer.close());
  }

  const results = [];
  for (const { service, model } of RUNS) {
    const size = model === 'people' ? PEOPLE : TIMELINES;
    console.log(`\n${service}/${model}: rebuild from empty (${size} rows, none known):`);
    const empty = await rebuild(service, model);
    console.log(`\n${service}/${model}: rebuild over the full copy (every row replayed, none newer):`);
    const full = await rebuild(service, model);
    const client = new pg.Client({ connectionString: databaseUrl(names[service]) });
    await client.connect();
    const rows = Number((await client.query(`SELECT count(*) AS n FROM ${tables[`${service}:${model}`]}`)).rows[0].n);
    await client.end();
    results.push({ copy: `${service}/${model}`, size, empty, full, rows });
    if (rows !== size) process.exitCode = 1;
  }
  console.log('\n| copy | rebuild | rows | wall time (command) | rows/s | rows after |');
  console.log('|---|---|---|---|---|---|');
  for (const { copy, size, empty, full, rows } of results) {
    console.log(`| ${copy} | from empty | ${size} | ${empty.seconds.toFixed(1)} s | ${Math.round(size / empty.seconds)} | ${rows} |`);
    console.log(`| ${copy} | over the full copy | ${size} | ${full.seconds.toFixed(1)} s | ${Math.round(size / full.seconds)} | ${rows} |`);
  }
  console.log('2 shared cores: noisy figures');
} catch (error) {
  if (!interrupted()) {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  // Services, the bus, the prefix's streams, the databases (their closed pools' last backends
  // ended by FORCE), the mail dir.
  await cleanup();
}
