// The reliability bar of DESIGN.md section 8, tried on the separate-process topology
// (deploy/run-services.mjs: every service, worker and the gateway as its own process, restarted
// with backoff when one dies) against a Postgres and a NATS that this suite starts on ports of
// its own. Under a steady write load through the gateway it kills each process with SIGKILL,
// kills and restarts NATS, and stops Postgres (as a crash would) for FAULTS_PG_OUTAGE_SECONDS
// (60). Afterwards:
//   - every acknowledged write is in the database;
//   - every counter kept from events equals a fresh count of what it counts (nothing lost, nothing
//     applied twice), and no event was dead-lettered by an outage;
//   - every comment on another person's timeline told that timeline's owner (the notifications
//     service keeps the timelines from other events than the comments: a restart leaves one behind);
//   - no request was answered 500; every refusal during an outage was a 503 with Retry-After (or
//     the gateway's own connection was gone);
//   - the time each fault took to recover from is printed.
// Then the missing-reference case: the notifications service's consumers of the timelines and of
// the registrations held back while comments on new timelines and a profile change are ahead, then
// released; the outcome must be the normal order's. Then a read model rebuild under the write load:
// search's and social's timelines emptied, the search process killed during its rebuild, the
// rebuild run again (`scripts/read-model.mjs`); both copies must hold every timeline at its last
// revision.
//
//   npm run test:faults   (builds, then runs this file; about six minutes on the 2-core machine)
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { DeadLetterAdmin } from '@timeliner/platform';
import type { App } from '../../deploy/run-services.mjs';
import { NatsServer, PostgresCluster, sleep } from './support/infra.js';
import { counterDrift, ready, type RunningTopology, settle, startTopology, summarise, type Topology, undispatchedOutboxes, untoldComments, waitFor } from './support/topology.js';
import { WriteLoad } from './support/write-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PG_OUTAGE_SECONDS = Number(process.env.FAULTS_PG_OUTAGE_SECONDS ?? 60);
const BUS_PREFIX = 'faults';

interface Recovery {
  fault: string;
  outageSeconds: number;
  recoverySeconds: number;
}

describe('the separate-process topology under faults', () => {
  let scratch: string;
  let postgres: PostgresCluster;
  let nats: NatsServer;
  let apps: App[];
  let topology: Topology;
  let running: RunningTopology;
  let load: WriteLoad;
  const recoveries: Recovery[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-faults-'));
    // Postgres runs as its own user (not root), which must reach its directory inside.
    chmodSync(scratch, 0o755);
    postgres = await PostgresCluster.create(join(scratch, 'postgres'), join(scratch, 'infra.log'));
    nats = await NatsServer.start(join(scratch, 'nats'), join(scratch, 'infra.log'));
    running = await startTopology(root, scratch, { databaseUrl: postgres.url, natsUrl: nats.url, busPrefix: BUS_PREFIX });
    ({ apps, topology } = running);

    load = new WriteLoad(running.gatewayUrl);
    await load.signUp(8);
  }, 240_000);

  afterAll(async () => {
    await load?.stop();
    await running?.stop();
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
      await waitFor(`${app.name} restarted`, async () => (topology.pidOf(app.name) ?? pid) !== pid && (await ready(app.readyPort ?? app.port)), 60_000);
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
    const counters = await settle(() => counterDrift(postgres, load.personIds), 120_000);
    console.log(`counters equal to fresh counts ${counters.seconds.toFixed(1)} s after the load stopped`);
    expect(counters.remaining).toEqual([]);

    // Every comment on someone else's timeline told its owner: none skipped for a timeline the
    // notifications service had not heard of yet.
    const [others] = await postgres.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM social.timeline_comments c JOIN timelines.timelines t ON t.id = c.timeline_id WHERE c.id = ANY($1::uuid[]) AND c.user_id <> t.creator_id',
      [[...load.comments]],
    );
    expect(others!.n).toBeGreaterThan(0);
    const told = await settle(() => untoldComments(postgres, [...load.comments]), 60_000);
    console.log(`${others!.n} comments on another person's timeline, ${told.remaining.length} owners not told`);
    expect(told.remaining).toEqual([]);

    // Every outbox drained, and no event set aside: an outage is waited out, never dead-lettered.
    const drained = await settle(() => undispatchedOutboxes(postgres), 60_000);
    console.log(`outboxes drained ${drained.seconds.toFixed(1)} s after the counters agreed`);
    expect(drained.remaining).toEqual([]);
    const admin = await DeadLetterAdmin.open(nats.url, BUS_PREFIX);
    try {
      expect(await admin.list()).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 900_000);

  it('applies what comes before its dependency once the dependency is in: comments before their timelines, a profile change before the registration', async () => {
    const notifications = apps.find((a) => a.name === 'notifications')!;
    const stream = `${BUS_PREFIX.toUpperCase()}_EVENTS`;
    const held = ['notifications__timelines_timeline_snapshot_v1', 'notifications__auth_user_registered_v1'];
    // Held back: the notifications service's consumers of the timelines and of the registrations
    // are taken away (its loops of them wait for consumers that are not there); its other
    // consumers, the comments' and the profile changes', go on.
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      for (const name of held) await jsm.consumers.delete(stream, name);
    } finally {
      await nc.close();
    }
    // Their dependencies are ahead: new timelines commented by other people, a new person renamed.
    const made: Array<{ ownerId: string; timelineId: string; commentId: string }> = [];
    for (let n = 0; n < 8; n++) {
      const pair = await load.commentedTimeline(n);
      if (pair) made.push(pair);
    }
    expect(made.length).toBe(8);
    const renamed = await load.renamedPerson('Renamed Later');
    expect(renamed).toBeDefined();
    const ids = made.map((m) => m.commentId);

    // The comments name their timeline's owner and title: the owners are told with the copy behind.
    await waitFor('the owners told', async () => (await untoldComments(postgres, ids)).length === 0, 60_000);
    expect(await postgres.query('SELECT 1 FROM notifications.timelines WHERE id = ANY($1::uuid[])', [made.map((m) => m.timelineId)])).toEqual([]);
    // The profile change waits (tried again, never skipped) for a registration that has not come.
    await sleep(3_000);
    expect(await postgres.query('SELECT 1 FROM notifications.users WHERE id = $1', [renamed])).toEqual([]);

    // Released: the process starts again and its consumers with it, the held ones from the stream's first event.
    const pid = topology.pidOf('notifications')!;
    process.kill(pid, 'SIGKILL');
    const released = Date.now();
    await waitFor('notifications restarted', async () => (topology.pidOf('notifications') ?? pid) !== pid && (await ready(notifications.readyPort ?? notifications.port)), 60_000);
    await waitFor('the copies caught up', async () => {
      const timelines = await postgres.query('SELECT 1 FROM notifications.timelines WHERE id = ANY($1::uuid[])', [made.map((m) => m.timelineId)]);
      const [person] = await postgres.query<{ display_name: string }>('SELECT display_name FROM notifications.users WHERE id = $1', [renamed]);
      return timelines.length === made.length && person?.display_name === 'Renamed Later';
    }, 180_000);
    console.log(`held-back copies caught up, the profile change applied ${((Date.now() - released) / 1000).toFixed(1)} s after the release`);

    // The same outcome as in the normal order: every owner told once, with the timeline's title.
    expect(await untoldComments(postgres, ids)).toEqual([]);
    const titles = await postgres.query<{ target_title: string; title: string }>(
      `SELECT n.target_title, t.title FROM notifications.notification_activities a JOIN notifications.notifications n ON n.id = a.notification_id
         JOIN timelines.timelines t ON t.id = n.target_id WHERE a.source_key = ANY($1)`,
      [ids.map((id) => `comment:${id}`)],
    );
    expect(titles.length).toBe(made.length);
    for (const row of titles) expect(row.target_title).toBe(row.title);
    const admin = await DeadLetterAdmin.open(nats.url, BUS_PREFIX);
    try {
      expect(await admin.list()).toEqual([]);
    } finally {
      await admin.close();
    }
  }, 600_000);

  it('rebuilds search and the social feed from the timelines service under the write load, also after the search process is killed during a rebuild', async () => {
    /** The command; `onLine` sees its progress lines. Resolves with its exit code. */
    const rebuild = (service: string, onLine: (line: string) => void = () => undefined) =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, [join(root, 'scripts/read-model.mjs'), 'rebuild', service, '--quiet-timeout', '15'], {
          env: { ...process.env, NODE_OPTIONS: '', NATS_URL: nats.url, BUS_PREFIX },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        child.stdout.on('data', (chunk: Buffer) => {
          for (const line of String(chunk).split('\n').filter(Boolean)) {
            console.log(line);
            onLine(line);
          }
        });
        child.on('exit', (code) => resolve(code ?? 1));
      });
    // Timelines from before the stream (revision 1, never published), so a rebuild lasts long
    // enough to be interrupted.
    await postgres.query(
      `INSERT INTO timelines.timelines (id, title, description, creator_id, creator_name, is_public, visibility, status, revision)
       SELECT gen_random_uuid(), 'Old timeline ' || n, 'From long ago', gen_random_uuid(), 'Someone ' || n, true, 'public', 'published', 1 FROM generate_series(1, 3000) AS n`,
    );
    load.start(4, 20);
    await load.recovered(Date.now(), 60_000);
    // The copies emptied, as a new deployment starts. The services keep applying the live load
    // meanwhile, so Postgres may pick the emptying statement as a deadlock's victim: run it again.
    const whileLive = async (sql: string) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await postgres.query(sql);
        } catch (error) {
          if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error;
        }
      }
    };
    await whileLive('TRUNCATE search.timelines, search.deleted_timelines');
    await whileLive(`DELETE FROM social.activities WHERE activity_type = 'created_timeline'`);
    await whileLive('TRUNCATE social.feed_timelines, social.deleted_timelines');

    // Search killed as soon as its rebuild reports progress: the command sees no more and gives up.
    const search = apps.find((a) => a.name === 'search')!;
    const pid = topology.pidOf('search')!;
    let killed = false;
    const interrupted = await rebuild('search', (line) => {
      if (!killed && line.includes(' rebuilding')) {
        killed = true;
        process.kill(pid, 'SIGKILL');
      }
    });
    expect(killed).toBe(true);
    expect(interrupted).toBe(2);
    await waitFor('search restarted', async () => (topology.pidOf('search') ?? pid) !== pid && (await ready(search.readyPort ?? search.port)), 60_000);
    // Run again (as the runbook says), both services at once, under the load.
    expect(await Promise.all([rebuild('search'), rebuild('social')])).toEqual([0, 0]);
    await load.stop();

    // Every timeline at its last revision in both copies, nothing else.
    const producer = async () => JSON.stringify(await postgres.query('SELECT id, revision::text AS revision FROM timelines.timelines WHERE revision > 0 ORDER BY id'));
    await waitFor('the rebuilt copies equal the timelines', async () => {
      const want = await producer();
      const searchCopy = JSON.stringify(await postgres.query('SELECT id, revision::text AS revision FROM search.timelines ORDER BY id'));
      const feedCopy = JSON.stringify(await postgres.query('SELECT id, revision::text AS revision FROM social.feed_timelines ORDER BY id'));
      return searchCopy === want && feedCopy === want;
    }, 60_000);
    const [count] = await postgres.query<{ n: number }>('SELECT count(*)::int AS n FROM search.timelines');
    expect(count!.n).toBeGreaterThan(3000);
  }, 300_000);
});
