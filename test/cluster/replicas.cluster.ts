// Replicas of everything: `start:services --replicas 2` (deploy/run-services.mjs) runs two of
// every service, worker and gateway, HAProxy in front of the gateways (the public port) and of
// each service's replicas (the gateways' <NAME>_SERVICE_URL), on a Postgres, a nats-server and a
// Redis (the gateways' shared rate limits) of this suite's own. It proves:
//   (a) a /ws client on one gateway receives what a write through the other caused (realtime
//       messages travel over NATS to every gateway);
//   (b) a logout through one gateway is honoured by the other at once (within a second, where its
//       session cache would otherwise trust the token for SESSION_CACHE_TTL_SECONDS, 30): its
//       requests are refused and its socket there is closed (the auth service's SessionRevoked
//       event, heard by every gateway);
//   (c) every process restarted one at a time (SIGTERM, its replacement ready and back in HAProxy
//       before the next) under a steady write load through the public port: no answer 500, 502 or
//       504, any 503 with Retry-After (counted and printed), no connection refused, and nothing
//       acknowledged lost or applied twice. HAProxy itself is not restarted: it stands for the
//       cloud load balancer or the Kubernetes Service, which a rollout of the apps leaves alone.
//   (d) a client's writes are counted once across the gateways (REDIS_URL): a limit of ten
//       anonymous writes per address lets ten through, not ten per gateway.
//
//   npm run test:cluster   (builds, then runs the cluster files; this one takes about three minutes
//   on the 2-core machine). Needs haproxy, redis-server, nats-server and PostgreSQL 15's binaries.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebSocket } from 'ws';
import type { App } from '../../deploy/run-services.mjs';
import { NatsServer, PostgresCluster, sleep } from '../faults/support/infra.js';
import { counterDrift, ready, type RunningTopology, settle, startTopology, summarise, waitFor } from '../faults/support/topology.js';
import { WriteLoad } from '../faults/support/write-load.js';
import { RedisServer } from './support/redis.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUS_PREFIX = 'replicas';
const REPLICAS = 2;
const ANONYMOUS_LIMIT = 10;

interface Person {
  id: string;
  token: string;
}

/** The parts of the answers this test reads. */
interface Body {
  id?: string;
  timeline?: { id: string };
  user?: { id: string };
  session?: { token: string };
}

/** A message a socket receives. */
interface Frame {
  type: string;
  message?: string;
  notification?: { actorId: string | null; target: unknown };
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Body) : {} };
}

async function signUp(base: string): Promise<Person> {
  const handle = `replica_${randomBytes(4).toString('hex')}`;
  const { status, body } = await call(base, 'POST', '/api/auth/register', undefined, { displayName: handle, username: handle, email: `${handle}@example.com`, password: 'correct-horse-battery' });
  if (status !== 201 && status !== 200) throw new Error(`sign-up answered ${status}: ${JSON.stringify(body)}`);
  return { id: body.user!.id, token: body.session!.token };
}

/** A socket on `base`'s /ws, authenticated as `person` and subscribed to `topic`; every message it gets after that is in `received`. */
async function socketOf(base: string, person: Person, topic: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
  const received: Array<{ at: number; message: Frame }> = [];
  const closed = new Promise<{ code: number; at: number }>((resolve) => socket.once('close', (code) => resolve({ code, at: Date.now() })));
  const next = (type: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} on the socket within 15 s`)), 15_000);
      const listener = (data: Buffer) => {
        const message = JSON.parse(String(data)) as Frame;
        if (message.type === type) {
          clearTimeout(timer);
          socket.off('message', listener);
          resolve();
        } else if (message.type === 'error') reject(new Error(`socket: ${message.message}`));
      };
      socket.on('message', listener);
    });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'auth', token: person.token }));
  await next('authenticated');
  socket.send(JSON.stringify({ type: 'subscribe', topic }));
  await next('subscribed');
  socket.on('message', (data: Buffer) => received.push({ at: Date.now(), message: JSON.parse(String(data)) as Frame }));
  return { socket, received, closed };
}

/** HAProxy's view of each server (`backend/server` → UP, DOWN, ...) and each backend's retries and redispatches, from its statistics. */
async function haproxyStats(monitorPort: number): Promise<{ status: Map<string, string>; retries: number; redispatches: number }> {
  const csv = await (await fetch(`http://127.0.0.1:${monitorPort}/stats;csv`, { signal: AbortSignal.timeout(2_000) })).text();
  const [header, ...rows] = csv.trim().split('\n');
  const columns = header!.replace(/^# /, '').split(',');
  const at = (name: string) => columns.indexOf(name);
  const status = new Map<string, string>();
  let retries = 0;
  let redispatches = 0;
  for (const row of rows.map((line) => line.split(','))) {
    const [proxy, server] = [row[at('pxname')]!, row[at('svname')]!];
    if (server === 'BACKEND') {
      retries += Number(row[at('wretr')] || 0);
      redispatches += Number(row[at('wredis')] || 0);
    } else if (server !== 'FRONTEND') status.set(`${proxy}/${server}`, row[at('status')]!);
  }
  return { status, retries, redispatches };
}

/** HAProxy's backend and server name of a replica: `auth-2` → `auth/auth-2`, `gateway-1` → `gateways/gateway-1`. */
const balancedAs = (app: App) => (app.kind === 'gateway' ? `gateways/${app.name}` : app.kind === 'service' ? `${app.name.replace(/-\d+$/, '')}/${app.name}` : undefined);

describe(`every service, worker and gateway ${REPLICAS} times behind HAProxy`, () => {
  let scratch: string;
  let postgres: PostgresCluster;
  let nats: NatsServer;
  let redis: RedisServer;
  let running: RunningTopology;
  let gateways: string[];
  let monitorPort: number;

  beforeAll(async () => {
    const haproxy = process.env.HAPROXY ?? 'haproxy';
    if (spawnSync(haproxy, ['-v']).status !== 0) throw new Error(`This test runs the replicas behind HAProxy, and \`${haproxy}\` is not there: apt-get install -y haproxy (or set HAPROXY to its path)`);
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-replicas-'));
    chmodSync(scratch, 0o755);
    postgres = await PostgresCluster.create(join(scratch, 'postgres'), join(scratch, 'infra.log'));
    nats = await NatsServer.start(join(scratch, 'nats'), join(scratch, 'infra.log'));
    redis = await RedisServer.start(join(scratch, 'infra.log'));
    // A low limit on writes by people not signed in (none in the write load), one hour long: the
    // gateways must count them together.
    const limits = { ANONYMOUS_WRITE_LIMIT_MAX: String(ANONYMOUS_LIMIT), ANONYMOUS_WRITE_LIMIT_WINDOW_SECONDS: '3600' };
    running = await startTopology(root, scratch, { databaseUrl: postgres.url, natsUrl: nats.url, busPrefix: BUS_PREFIX }, { REDIS_URL: redis.url, ...limits }, REPLICAS);
    gateways = running.apps.filter((a) => a.kind === 'gateway').map((a) => `http://127.0.0.1:${a.port}`);
    monitorPort = running.apps.find((a) => a.kind === 'balancer')!.readyPort!;
    const counts = summarise(running.apps.map((a) => a.kind));
    console.log(`running ${running.apps.length} processes (${counts}); public ${running.gatewayUrl}, gateways ${gateways.join(' and ')}`);
  }, 400_000);

  afterAll(async () => {
    await running?.stop();
    await redis?.stop();
    await nats?.kill();
    try {
      postgres?.stop('fast');
    } catch {
      // already stopped
    }
    if (process.env.FAULTS_KEEP) console.log(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('runs two of each process, every one of them in HAProxy', async () => {
    expect(gateways).toHaveLength(REPLICAS);
    const { status } = await haproxyStats(monitorPort);
    const balanced = running.apps.map(balancedAs).filter((name): name is string => !!name);
    expect(balanced.length).toBeGreaterThanOrEqual(REPLICAS * 3);
    await waitFor('every replica up in HAProxy', async () => {
      const { status: now } = await haproxyStats(monitorPort);
      return balanced.every((name) => now.get(name) === 'UP');
    }, 15_000);
    expect([...status.keys()].sort()).toEqual([...balanced].sort());
    const workers = running.apps.filter((a) => a.kind === 'worker');
    expect(workers.length).toBeGreaterThanOrEqual(REPLICAS);
    for (const worker of workers) expect(await ready(worker.port)).toBe(true);
  });

  it('delivers to a /ws client on one gateway what a write through the other caused', async () => {
    const [a, b] = gateways as [string, string];
    const owner = await signUp(a);
    const commenter = await signUp(b);
    const { socket, received } = await socketOf(a, owner, `user:${owner.id}`);
    try {
      const created = await call(b, 'POST', '/api/timelines', owner.token, { title: 'Seen elsewhere', visibility: 'public' });
      expect(created.status).toBe(201);
      const timelineId = (created.body.id ?? created.body.timeline?.id)!;
      expect((await call(b, 'PATCH', `/api/timelines/${timelineId}`, owner.token, { status: 'published' })).status).toBe(200);
      const commentedAt = Date.now();
      const comment = await call(b, 'POST', `/api/timelines/${timelineId}/comments`, commenter.token, { content: 'from the other gateway' });
      expect(comment.status).toBe(201);
      await waitFor('the owner told on the other gateway', () => received.some((r) => r.message.type === 'notification'), 20_000);
      const told = received.find((r) => r.message.type === 'notification')!;
      console.log(`(a) comment through gateway B at ${new Date(commentedAt).toISOString()}; its notification reached the socket on gateway A ${told.at - commentedAt} ms later`);
      expect(told.message.notification!.actorId).toBe(commenter.id);
      expect(JSON.stringify(told.message.notification!.target)).toContain(timelineId);
    } finally {
      socket.close();
    }
  }, 60_000);

  it('honours a logout through one gateway on the other at once', async () => {
    const [a, b] = gateways as [string, string];
    const person = await signUp(a);
    // Gateway B knows the session: a read there is answered from its cache from now on, for up to
    // SESSION_CACHE_TTL_SECONDS (30) unless it hears the revocation. Its socket there too.
    expect((await call(b, 'GET', '/api/notifications/unread-count', person.token)).status).toBe(200);
    expect((await call(b, 'GET', '/api/notifications/unread-count', person.token)).status).toBe(200);
    const { socket, closed } = await socketOf(b, person, `user:${person.id}`);

    // Counted from when the logout is sent: the other gateway may hear of it before its answer arrives.
    const loggedOutAt = Date.now();
    const logout = await call(a, 'POST', '/api/auth/logout', person.token);
    expect(logout.status).toBeLessThan(300);
    const answeredAfter = Date.now() - loggedOutAt;
    let refusedAfter = -1;
    while (Date.now() - loggedOutAt < 5_000) {
      const { status } = await call(b, 'GET', '/api/notifications/unread-count', person.token);
      if (status === 401) {
        refusedAfter = Date.now() - loggedOutAt;
        break;
      }
      expect(status).toBe(200);
      await sleep(20);
    }
    const socketClosed = await Promise.race([closed, sleep(5_000).then(() => undefined)]);
    console.log(`(b) logout sent through gateway A, answered ${logout.status} after ${answeredAfter} ms; gateway B refused the token ${refusedAfter} ms after the logout was sent and closed its socket (code ${socketClosed?.code}) ${socketClosed ? socketClosed.at - loggedOutAt : 'never'} ms after`);
    socket.terminate();
    expect(refusedAfter).toBeGreaterThanOrEqual(0);
    expect(refusedAfter).toBeLessThan(1_000);
    expect(socketClosed?.code).toBe(4401);
    expect(socketClosed!.at - loggedOutAt).toBeLessThan(1_000);
  }, 60_000);

  it('counts a client\'s writes against one budget whichever gateway they reach (Redis)', async () => {
    const [a, b] = gateways as [string, string];
    const owner = await signUp(a);
    const created = await call(a, 'POST', '/api/timelines', owner.token, { title: 'Viewed', visibility: 'public' });
    const timelineId = (created.body.id ?? created.body.timeline?.id)!;
    expect((await call(a, 'PATCH', `/api/timelines/${timelineId}`, owner.token, { status: 'published' })).status).toBe(200);
    // Views by someone not signed in, from one address, through A and B in turn: each gateway on
    // its own would let ANONYMOUS_LIMIT through, twice as many in all.
    const answers: number[] = [];
    for (let i = 0; i < ANONYMOUS_LIMIT * 2 + 2; i++) answers.push((await call(i % 2 === 0 ? a : b, 'POST', `/api/timelines/${timelineId}/views`, undefined, { watchTime: 5, completion: 0.5 })).status);
    console.log(`(d) anonymous views through gateways A and B in turn, limit ${ANONYMOUS_LIMIT} per address: ${summarise(answers.map(String))}`);
    const firstRefused = answers.indexOf(429);
    expect(firstRefused).toBe(ANONYMOUS_LIMIT);
    expect(answers.slice(0, ANONYMOUS_LIMIT).every((status) => status < 300)).toBe(true);
    expect(answers.slice(ANONYMOUS_LIMIT).every((status) => status === 429)).toBe(true);
  }, 60_000);

  it('restarts every process one at a time under a write load with no 5xx and nothing lost', async () => {
    const load = new WriteLoad(running.gatewayUrl);
    await load.signUp(6);
    const before = await haproxyStats(monitorPort);
    load.start(3, 30);
    await load.recovered(Date.now(), 60_000);
    await sleep(2_000);

    const restarts: string[] = [];
    const started = Date.now();
    for (const app of running.apps.filter((a) => a.kind !== 'balancer')) {
      const pid = running.topology.pidOf(app.name)!;
      const stoppedAt = Date.now();
      process.kill(pid, 'SIGTERM');
      await waitFor(`${app.name} replaced`, async () => (running.topology.pidOf(app.name) ?? pid) !== pid && (await ready(app.readyPort ?? app.port)), 120_000);
      const name = balancedAs(app);
      if (name) await waitFor(`${app.name} back in HAProxy`, async () => (await haproxyStats(monitorPort)).status.get(name) === 'UP', 15_000);
      restarts.push(`${app.name} ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s`);
      await sleep(1_000);
    }
    const rollSeconds = (Date.now() - started) / 1000;
    await sleep(2_000);
    await load.stop();
    const after = await haproxyStats(monitorPort);

    const refused503 = load.refusals.filter((r) => r.status === 503 && r.retryAfter);
    console.log(
      [
        `(c) rolling restart of ${restarts.length} processes in ${rollSeconds.toFixed(1)} s (${restarts.join(', ')})`,
        `acknowledged: ${JSON.stringify(load.acknowledged)}; refused: ${load.refusals.length} (${summarise(load.refusals.map((r) => String(r.status))) || 'none'}); 503 with Retry-After: ${refused503.length}`,
        `HAProxy retried ${after.retries - before.retries} connections and sent ${after.redispatches - before.redispatches} requests to the other replica`,
        ...load.refusals.filter((r) => r.status === 'network').map((r) => `no answer at ${new Date(r.at).toISOString()}: ${r.reason}`),
      ].join('\n'),
    );

    // No 5xx but an honest 503 (with Retry-After), and the public port never refused a connection.
    expect(load.refusals.filter((r) => r.status === 'network')).toEqual([]);
    expect(load.refusals.filter((r) => typeof r.status === 'number' && r.status >= 500 && !(r.status === 503 && r.retryAfter))).toEqual([]);
    expect(load.acknowledged.timeline + load.acknowledged.comment + load.acknowledged.like).toBeGreaterThan(restarts.length);

    // Every acknowledged write is there, and every event-kept counter equals a fresh count.
    const timelines = await postgres.query('SELECT id FROM timelines.timelines WHERE id = ANY($1::uuid[])', [[...load.timelines]]);
    expect(timelines.length).toBe(load.timelines.size);
    const comments = await postgres.query('SELECT id FROM social.timeline_comments WHERE id = ANY($1::uuid[])', [[...load.comments]]);
    expect(comments.length).toBe(load.comments.size);
    const counters = await settle(() => counterDrift(postgres, load.personIds), 120_000);
    console.log(`counters equal to fresh counts ${counters.seconds.toFixed(1)} s after the load stopped`);
    expect(counters.remaining).toEqual([]);
  }, 1_200_000);
});
