// The reliability bar of DESIGN.md section 8, tried on the separate-process topology
// (deploy/run-services.mjs: every service, worker and the gateway as its own process, restarted
// with backoff when one dies) against a Postgres and a NATS that this suite starts on ports of
// its own. Under a steady write load through the gateway it kills each process with SIGKILL,
// kills and restarts NATS, and stops Postgres (as a crash would) for FAULTS_PG_OUTAGE_SECONDS
// (60). Afterwards:
//   - every acknowledged write is in the database;
//   - every counter kept from events equals a fresh count of what it counts (nothing lost, nothing
//     applied twice), and no event was dead-lettered by an outage;
//   - no request was answered 500; every refusal during an outage was a 503 with Retry-After (or
//     the gateway's own connection was gone);
//   - the time each fault took to recover from is printed.
//
//   npm run test:faults   (builds, then runs this file; about four minutes on the 2-core machine)
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DeadLetterAdmin } from '@timeliner/platform';
import { type App, discoverApps, sharedEnv, supervise } from '../../deploy/run-services.mjs';
import { freePort, NatsServer, PostgresCluster, sleep } from './support/infra.js';
import { WriteLoad } from './support/write-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PG_OUTAGE_SECONDS = Number(process.env.FAULTS_PG_OUTAGE_SECONDS ?? 60);
const BUS_PREFIX = 'faults';

interface Recovery {
  fault: string;
  outageSeconds: number;
  recoverySeconds: number;
}

/** The discovered apps on free ports (the machine may run another topology on the default ones). */
async function onFreePorts(apps: App[]): Promise<App[]> {
  const backends = await Promise.all(apps.filter((a) => a.kind !== 'gateway').map(async (a) => ({ ...a, port: await freePort() })));
  const urls = Object.fromEntries(backends.filter((a) => a.kind === 'service').map((a) => [`${a.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_SERVICE_URL`, `http://127.0.0.1:${a.port}`]));
  const gateway = apps.find((a) => a.kind === 'gateway')!;
  return [...backends, { ...gateway, port: await freePort(), env: { ...gateway.env, ...urls } }];
}

async function ready(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await sleep(100)) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
  }
}

describe('the separate-process topology under faults', () => {
  let scratch: string;
  let postgres: PostgresCluster;
  let nats: NatsServer;
  let apps: App[];
  let topology: ReturnType<typeof supervise>;
  let load: WriteLoad;
  const recoveries: Recovery[] = [];
  const logFile = () => join(scratch, 'processes.log');

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-faults-'));
    // Postgres runs as its own user (not root), which must reach its directory inside.
    chmodSync(scratch, 0o755);
    postgres = await PostgresCluster.create(join(scratch, 'postgres'), join(scratch, 'infra.log'));
    nats = await NatsServer.start(join(scratch, 'nats'), join(scratch, 'infra.log'));
    const webDist = join(scratch, 'web');
    const data = join(scratch, 'data');
    for (const dir of [webDist, data]) mkdirSync(dir);
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>faults</title>');

    const { NODE_OPTIONS: _jestOptions, ...inherited } = process.env;
    const env = sharedEnv({
      ...inherited,
      NODE_ENV: 'production',
      DATABASE_URL: postgres.url,
      NATS_URL: nats.url,
      BUS_PREFIX,
      DATA_DIR: data,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
      STARTUP_WAIT_SECONDS: '600',
      SHUTDOWN_GRACE_SECONDS: '5',
      // The load comes from one address and a few people: the limits are not what is tried here.
      RATE_LIMIT_MAX: '1000000',
      AUTH_RATE_LIMIT_MAX: '1000',
      CONTENT_RATE_LIMIT_MAX: '1000000',
      ANONYMOUS_WRITE_LIMIT_MAX: '1000000',
    });
    apps = await onFreePorts(discoverApps(root, env));
    const log = createWriteStream(logFile());
    topology = supervise(apps, { root, env, out: log, err: log, readyTimeoutMs: 120_000, restartDelays: { first: 500, max: 5_000, stableAfter: 30_000 } });
    const gateway = apps.find((a) => a.kind === 'gateway')!;
    await waitFor('the topology ready', () => ready(gateway.port), 150_000);

    load = new WriteLoad(`http://127.0.0.1:${gateway.port}`);
    await load.signUp(8);
  }, 240_000);

  afterAll(async () => {
    await load?.stop();
    topology?.stop();
    await topology?.done;
    await nats?.kill();
    try {
      postgres?.stop('fast');
    } catch {
      // already stopped by a failed test
    }
    if (process.env.FAULTS_KEEP) console.log(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('recovers from every fault with nothing lost, nothing applied twice and no 500', async () => {
    load.start(4, 20);
    await load.recovered(Date.now(), 60_000);
    await sleep(3_000);

    // kill -9 of each process in turn; the supervisor starts it again. Recovery counts from the kill.
    for (const app of apps) {
      const pid = topology.pidOf(app.name)!;
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      await waitFor(`${app.name} restarted`, async () => (topology.pidOf(app.name) ?? pid) !== pid && (await ready(app.port)), 60_000);
      const back = Date.now();
      recoveries.push({ fault: `kill -9 ${app.name}`, outageSeconds: (back - killedAt) / 1000, recoverySeconds: (await load.recovered(killedAt)) / 1000 });
      await sleep(2_000);
    }
    // NATS and Postgres: recovery counts from the moment they are back.

    // NATS: killed, started again two seconds later on the same store.
    const natsKilledAt = Date.now();
    await nats.kill();
    await sleep(2_000);
    await nats.start();
    recoveries.push({ fault: 'kill -9 NATS, restart after 2 s', outageSeconds: (Date.now() - natsKilledAt) / 1000, recoverySeconds: (await load.recovered(Date.now())) / 1000 });
    await sleep(3_000);

    // Postgres: every process ended at once, down for the outage, then crash recovery on start.
    postgres.stop('immediate');
    const pgStoppedAt = Date.now();
    await sleep(PG_OUTAGE_SECONDS * 1000);
    await postgres.start();
    const pgBackAt = Date.now();
    recoveries.push({ fault: `Postgres stopped (immediate) for ${PG_OUTAGE_SECONDS} s`, outageSeconds: (pgBackAt - pgStoppedAt) / 1000, recoverySeconds: (await load.recovered(pgBackAt)) / 1000 });

    await sleep(5_000);
    await load.stop();

    console.log(
      [
        'fault | down (s) | every kind of write acknowledged again after (s)',
        ...recoveries.map((r) => `${r.fault} | ${r.outageSeconds.toFixed(1)} | ${r.recoverySeconds.toFixed(1)}`),
        `acknowledged: ${JSON.stringify(load.acknowledged)}; refused: ${load.refusals.length} (${summarise(load.refusals.map((r) => String(r.status)))})`,
      ].join('\n'),
    );

    // No 500, and an honest answer for every refusal the gateway could give.
    expect(load.refusals.filter((r) => r.status === 500)).toEqual([]);
    expect(load.refusals.filter((r) => r.status !== 'network' && !(r.status === 503 && r.retryAfter))).toEqual([]);

    // Every acknowledged write is there.
    const timelines = await postgres.query<{ id: string }>('SELECT id FROM timelines.timelines WHERE id = ANY($1::uuid[])', [[...load.timelines]]);
    expect(timelines.length).toBe(load.timelines.size);
    const comments = await postgres.query<{ id: string }>('SELECT id FROM social.timeline_comments WHERE id = ANY($1::uuid[])', [[...load.comments]]);
    expect(comments.length).toBe(load.comments.size);
    // The counters below were exercised: events reached the timelines and auth services.
    const [totals] = await postgres.query<{ comments: number; likes: number }>('SELECT sum(comments_count)::int AS comments, sum(likes_count)::int AS likes FROM timelines.timelines');
    expect(totals!.comments).toBeGreaterThan(0);
    expect(totals!.likes).toBeGreaterThan(0);

    // Every event-maintained counter converges on a fresh count of what it counts.
    const drift = async () => [
      ...(await postgres.query(
        `SELECT t.id, t.likes_count, t.comments_count,
                (SELECT count(*)::int FROM social.timeline_likes l WHERE l.timeline_id = t.id) AS likes,
                (SELECT count(*)::int FROM social.timeline_comments c WHERE c.timeline_id = t.id) AS comments
           FROM timelines.timelines t
          WHERE t.likes_count <> (SELECT count(*) FROM social.timeline_likes l WHERE l.timeline_id = t.id)
             OR t.comments_count <> (SELECT count(*) FROM social.timeline_comments c WHERE c.timeline_id = t.id)`,
      )),
      ...(await postgres.query(
        `SELECT u.id, u.timelines_count, u.total_likes,
                (SELECT count(*)::int FROM timelines.timelines t WHERE t.creator_id = u.id) AS timelines,
                (SELECT count(*)::int FROM social.timeline_likes l JOIN timelines.timelines t ON t.id = l.timeline_id WHERE t.creator_id = u.id) AS likes
           FROM auth.users u
          WHERE u.id = ANY($1::uuid[])
            AND (u.timelines_count <> (SELECT count(*) FROM timelines.timelines t WHERE t.creator_id = u.id)
              OR u.total_likes <> (SELECT count(*) FROM social.timeline_likes l JOIN timelines.timelines t ON t.id = l.timeline_id WHERE t.creator_id = u.id))`,
        [load.personIds],
      )),
    ];
    const settled = Date.now();
    let remaining = await drift();
    while (remaining.length > 0 && Date.now() - settled < 120_000) {
      await sleep(1_000);
      remaining = await drift();
    }
    console.log(`counters equal to fresh counts ${((Date.now() - settled) / 1000).toFixed(1)} s after the load stopped`);
    expect(remaining).toEqual([]);

    // Every outbox drained, and no event set aside: an outage is waited out, never dead-lettered.
    const schemas = (await postgres.query<{ table_schema: string }>("SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'")).map((r) => r.table_schema);
    const undispatched = async () => {
      const counts = await Promise.all(schemas.map(async (schema) => [schema, (await postgres.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".outbox WHERE dispatched_at IS NULL`))[0]!.n] as const));
      return counts.filter(([, n]) => n > 0);
    };
    const draining = Date.now();
    let pending = await undispatched();
    while (pending.length > 0 && Date.now() - draining < 60_000) {
      await sleep(1_000);
      pending = await undispatched();
    }
    console.log(`outboxes drained ${((Date.now() - draining) / 1000).toFixed(1)} s after the counters agreed`);
    expect(pending).toEqual([]);
    const admin = await DeadLetterAdmin.open(nats.url, BUS_PREFIX);
    try {
      expect(await admin.list()).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 900_000);
});

function summarise(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value}: ${count}`).join(', ');
}
