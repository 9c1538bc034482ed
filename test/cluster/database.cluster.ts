// The separate-process topology with Postgres behind PgBouncer in transaction mode (Debian's
// pgbouncer 1.18: no prepared statements kept across server connections, no `options` startup
// parameter) and a streaming replica for the reads that may lag (DATABASE_READ_URL, through the
// same PgBouncer):
//   - under a write load through the gateway, with feed pages read meanwhile, every acknowledged
//     write is in the database and every counter kept from events equals a fresh count; no 500;
//   - with the replica's replay paused (so it lags), a person's own new post is in their feed at
//     once (their reads stay on the primary), another person's feed answers from the lagging
//     replica without it, and `database_replica_lag_seconds` on the service's /metrics shows the
//     lag; once replay resumes, the other person sees it too.
//
//   npm run test:cluster   (builds, then runs the cluster files)
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NatsServer, PostgresCluster, sleep } from '../faults/support/infra.js';
import { counterDrift, type RunningTopology, settle, startTopology, summarise, undispatchedOutboxes, waitFor } from '../faults/support/topology.js';
import { WriteLoad } from '../faults/support/write-load.js';
import { PgBouncer, PostgresReplica } from './support/pgbouncer.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOAD_SECONDS = Number(process.env.CLUSTER_LOAD_SECONDS ?? 20);

interface Person {
  id: string;
  token: string;
}

describe('the topology through PgBouncer in transaction mode, with a read replica', () => {
  let scratch: string;
  let postgres: PostgresCluster;
  let replica: PostgresReplica;
  let bouncer: PgBouncer;
  let nats: NatsServer;
  let running: RunningTopology;

  const api = async (person: Person | undefined, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${running.gatewayUrl}${path}`, {
      method,
      headers: { ...(person ? { authorization: `Bearer ${person.token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  const signUp = async (): Promise<Person> => {
    const handle = `db_${randomBytes(4).toString('hex')}`;
    const { status, body } = await api(undefined, 'POST', '/api/auth/register', { displayName: handle, username: handle, email: `${handle}@example.com`, password: 'correct-horse-battery' });
    expect([200, 201]).toContain(status);
    const { user, session } = body as { user: { id: string }; session: { token: string } };
    return { id: user.id, token: session.token };
  };

  const followingFeed = async (person: Person): Promise<string[]> => {
    const { status, body } = await api(person, 'GET', '/api/feed?tab=following&limit=50');
    expect(status).toBe(200);
    return (body as Array<{ id: string }>).map((item) => item.id);
  };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-database-'));
    chmodSync(scratch, 0o755);
    const log = join(scratch, 'infra.log');
    postgres = await PostgresCluster.create(join(scratch, 'postgres'), log);
    replica = await PostgresReplica.create(join(scratch, 'replica'), postgres.port, log);
    bouncer = await PgBouncer.start(join(scratch, 'pgbouncer'), { primary: { port: postgres.port, dbname: 'postgres' }, replica: { port: replica.port, dbname: 'postgres' } }, log);
    nats = await NatsServer.start(join(scratch, 'nats'), log);
    running = await startTopology(root, scratch, { databaseUrl: bouncer.url('primary'), natsUrl: nats.url, busPrefix: 'database' }, {
      DATABASE_POOL_MODE: 'transaction',
      DATABASE_READ_URL: bouncer.url('replica'),
      DATABASE_READ_YOUR_WRITES_SECONDS: '5',
    });
  }, 300_000);

  afterAll(async () => {
    await running?.stop();
    await bouncer?.stop();
    await nats?.kill();
    for (const stop of [() => replica?.stop(), () => postgres?.stop('fast')]) {
      try {
        stop();
      } catch {
        // already stopped
      }
    }
    if (process.env.FAULTS_KEEP) console.log(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('loses nothing and answers feed pages under a write load', async () => {
    const load = new WriteLoad(running.gatewayUrl);
    await load.signUp(6);
    const reader = await signUp();
    const reads: number[] = [];
    load.start(4, 20);
    const until = Date.now() + LOAD_SECONDS * 1000;
    while (Date.now() < until) {
      for (const tab of ['for-you', 'following']) reads.push((await api(reader, 'GET', `/api/feed?tab=${tab}&limit=20`)).status);
      await sleep(100);
    }
    await load.stop();
    console.log(`through PgBouncer (transaction mode): acknowledged ${JSON.stringify(load.acknowledged)}; refused ${load.refusals.length} (${summarise(load.refusals.map((r) => String(r.status)))}); feed pages read ${reads.length} (${summarise(reads.map(String))})`);

    expect(reads.length).toBeGreaterThan(10);
    expect(reads.filter((s) => s !== 200)).toEqual([]);
    expect(load.refusals).toEqual([]);
    expect(load.acknowledged.timeline).toBeGreaterThan(0);
    expect(load.acknowledged.comment).toBeGreaterThan(0);
    expect(load.acknowledged.like).toBeGreaterThan(0);
    const timelines = await postgres.query<{ id: string }>('SELECT id FROM timelines.timelines WHERE id = ANY($1::uuid[])', [[...load.timelines]]);
    expect(timelines.length).toBe(load.timelines.size);
    const comments = await postgres.query<{ id: string }>('SELECT id FROM social.timeline_comments WHERE id = ANY($1::uuid[])', [[...load.comments]]);
    expect(comments.length).toBe(load.comments.size);
    const counters = await settle(() => counterDrift(postgres, load.personIds), 60_000);
    expect(counters.remaining).toEqual([]);
    expect((await settle(() => undispatchedOutboxes(postgres), 60_000)).remaining).toEqual([]);
  }, 300_000);

  it("reads a person's own write from the primary while another person's read answers from the lagging replica", async () => {
    const author = await signUp();
    const follower = await signUp();
    expect((await api(follower, 'POST', `/api/users/${author.id}/follow`)).status).toBeLessThan(300);
    // The follower's own write is older than the read-your-writes window before the replica stops.
    await sleep(6_000);
    // A commit the replica replays just before it stops: its lag then counts from now.
    await postgres.query('SELECT txid_current()');
    await waitFor('the replica caught up', async () => (await replica.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_wal_receiver'))[0]!.n > 0, 10_000);
    await sleep(300);
    await replica.query('SELECT pg_wal_replay_pause()');
    let postId = '';
    try {
      const { status, body } = await api(author, 'POST', '/api/posts', { content: 'read your writes' });
      expect(status).toBe(201);
      postId = (body as { id: string }).id;
      // The post is in the follower's inbox on the primary, in the same transaction as the post.
      expect(await postgres.query('SELECT 1 FROM social.feed_inbox WHERE owner_id = $1 AND item_id = $2', [follower.id, postId])).toHaveLength(1);
      await sleep(1_500);

      expect(await followingFeed(author)).toContain(postId);
      expect(await followingFeed(follower)).not.toContain(postId);

      const social = running.apps.find((app) => app.name === 'social')!;
      const metrics = await (await fetch(`http://127.0.0.1:${social.port}/metrics`)).text();
      const lag = Number(/^database_replica_lag_seconds\{[^}]*schema="social"[^}]*\} (\S+)$/m.exec(metrics)?.[1]);
      console.log(`replica replay paused: social's database_replica_lag_seconds ${lag}`);
      expect(lag).toBeGreaterThan(0);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
    await waitFor("the follower's feed from the replica once it replays again", async () => (await followingFeed(follower)).includes(postId), 20_000);
  }, 120_000);
});
