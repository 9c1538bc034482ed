#!/usr/bin/env node
// Notifications benchmark (issue 12): how fast a notification reaches its recipient's open socket,
// with many sockets connected through the gateway, and the bell's unread count under load.
//
//   npm run build   (the services and the gateway must be built)
//   node bench/notifications.mjs
//
// Steps:
//   1. a scratch database and a unique BUS_PREFIX; every service and the gateway as its own process
//      (the processes of deploy/run-services.mjs, on NATS JetStream), per-address limits raised;
//   2. NOTIF_BENCH_RECIPIENTS (200) people, each with a public published timeline, and
//      NOTIF_BENCH_ACTORS (20) people who like them, all signed up through the gateway;
//   3. NOTIF_BENCH_SOCKETS (2,000) sockets on the gateway's /ws, spread evenly over the recipients,
//      each authenticated and subscribed to its person's `user:<id>` topic;
//   4. NOTIF_BENCH_LIKES (400) likes at NOTIF_BENCH_LIKE_RATE (20) per second, each a different
//      (actor, timeline) pair: the time from the like's HTTP answer to the first `notification`
//      message about that timeline on one of its owner's sockets; p50 / p95 / p99 / max, and how
//      many never arrived (10 s); then where the time went, from the outbox and inbox times: social's
//      relay, the notifications consumer, the notifications service's own outbox relay
//      (`NotificationChanged`) and its delivery group, which sends the socket message;
//   5. `GET /api/notifications/unread-count` at NOTIF_BENCH_COUNT_RATE (500) per second for
//      NOTIF_BENCH_SECONDS (10), open loop (latency from when each request was due), straight at
//      the notifications service (signed as the gateway would) and through the gateway;
//   6. Web Push fairness (DESIGN.md §8: one person's dead push endpoints never delay another's push
//      by more than 2 s), against a fake push service on loopback HTTPS (its certificate trusted
//      through NODE_EXTRA_CA_CERTS, 127.0.0.1 opened with PUSH_ALLOW_PRIVATE_ADDRESSES=127.0.0.1/32,
//      the test-only setting) and a tarpit: a local TCP port that accepts and never answers.
//      One owner registers NOTIF_BENCH_TARPITS (40) push subscriptions at the tarpit
//      (PUSH_SUBSCRIPTIONS_PER_PERSON raised to allow them), another owner one at the push service.
//      First NOTIF_BENCH_PUSHES (10) likes of the second owner's timeline alone, one a second: the
//      time from the like's answer to the push reaching the push service; then the same while the
//      first owner's timeline gets a like every second too, each fanning out to the 40 silent
//      endpoints; p50 / max of both, the most tarpit connections open at once, and how many pushes
//      never arrived (15 s);
//   7. everything is removed: sockets, processes, database, the prefix's NATS streams, the temp dir;
//      also when the bench is stopped with Ctrl-C or SIGTERM (lib/cleanup.mjs).
//
// Env: ADMIN_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), NATS_URL
// (nats://127.0.0.1:4222), the NOTIF_BENCH_* sizes above.
// Bars: socket delivery p95 ≤ 250 ms; unread count p95 ≤ 10 ms at the service at 500 req/s;
// another person's push ≤ 2 s with 40 silent endpoints of one person.
import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Pool } from 'undici';
import { cleanup, interrupted, onCleanup, removeDir, removeStreams, scratchDatabase } from './lib/cleanup.mjs';
import { processOutput, startTopology } from './lib/processes.mjs';
import WebSocket from 'ws';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const num = (name, fallback) => (env[name] ? Number(env[name]) : fallback);
const RECIPIENTS = num('NOTIF_BENCH_RECIPIENTS', 200);
const ACTORS = num('NOTIF_BENCH_ACTORS', 20);
const SOCKETS = num('NOTIF_BENCH_SOCKETS', 2_000);
const LIKES = num('NOTIF_BENCH_LIKES', 400);
const LIKE_RATE = num('NOTIF_BENCH_LIKE_RATE', 20);
const COUNT_RATE = num('NOTIF_BENCH_COUNT_RATE', 500);
const SECONDS = num('NOTIF_BENCH_SECONDS', 10);
const TARPITS = num('NOTIF_BENCH_TARPITS', 40);
const PUSHES = num('NOTIF_BENCH_PUSHES', 10);
const ADMIN_URL = env.ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function api(base, method, path, { token, body, from } = {}) {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...(from ? { 'x-forwarded-for': from } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

let signUps = 0;

/** A new person; each from an address of its own, as the auth service allows 20 sign-ups per address an hour. */
async function signUp(base, label) {
  const handle = `${label}_${randomBytes(4).toString('hex')}`;
  const n = signUps++;
  const answer = await api(base, 'POST', '/api/auth/register', {
    from: `198.18.${n >> 8}.${n & 255}`,
    body: { displayName: `Bench ${handle}`, username: handle, email: `${handle}@example.com`, password: 'correct-horse-battery' },
  });
  return { id: answer.user.id, token: answer.session.token };
}

/** In parallel, `limit` at a time. */
async function inBatches(items, limit, work) {
  const results = [];
  for (let i = 0; i < items.length; i += limit) results.push(...(await Promise.all(items.slice(i, i + limit).map(work))));
  return results;
}

/** A /ws socket signed in as `person`, subscribed to their topic; `onMessage` gets every JSON message. */
function openSocket(base, person, onMessage) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers: { origin: base } });
    const timer = setTimeout(() => reject(new Error('socket did not subscribe in 20 s')), 20_000);
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'auth', token: person.token }));
      socket.send(JSON.stringify({ type: 'subscribe', topic: `user:${person.id}` }));
    });
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'subscribed') {
        clearTimeout(timer);
        resolve(socket);
      } else if (message.type === 'error') {
        reject(new Error(`socket error: ${JSON.stringify(message)}`));
      } else {
        onMessage(message);
      }
    });
    socket.on('error', reject);
  });
}

const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const ms = (v) => `${v.toFixed(1)} ms`;
const summary = (latencies) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
};

/** Open loop: one request every 1/rate s, latency from when it was due. */
async function fixedRate(get, rate, seconds) {
  const total = Math.round(rate * seconds);
  const latencies = [];
  let errors = 0;
  let firstError = '';
  const started = performance.now();
  const inflight = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inflight.push(
      get(i).then(
        (res) => {
          latencies.push(performance.now() - due);
          if (res.status !== 200) {
            errors++;
            firstError ||= `${res.status} ${res.body.slice(0, 200)}`;
          }
        },
        (error) => {
          errors++;
          firstError ||= String(error);
        },
      ),
    );
  }
  await Promise.all(inflight);
  return { ...summary(latencies), errors, firstError, achieved: total / ((performance.now() - started) / 1000) };
}

/** A certificate for 127.0.0.1, made for this run, in `dir`. */
function selfSignedCertificate(dir) {
  mkdirSync(dir, { recursive: true });
  const key = join(dir, 'push-key.pem');
  const cert = join(dir, 'push-cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { key: readFileSync(key), cert: readFileSync(cert), certFile: cert };
}

/** A push service on loopback HTTPS: when each push arrived, by path. */
async function startPushService(tls) {
  const arrivals = [];
  const server = createHttpsServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push({ path: request.url, at: performance.now() });
      response.writeHead(201).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://127.0.0.1:${server.address().port}`, arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A push service that accepts connections and never answers: how many are open, and the most at once. */
async function startTarpit() {
  const open = new Set();
  let most = 0;
  let total = 0;
  const server = createTcpServer((socket) => {
    total++;
    open.add(socket);
    most = Math.max(most, open.size);
    socket.on('error', () => {});
    socket.on('close', () => open.delete(socket));
    socket.resume();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${server.address().port}`,
    stats: () => ({ open: open.size, most, total }),
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** What PushManager.subscribe gives a browser: a P-256 public key and a 16-byte secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

async function main() {
  const dbName = `notif_bench_${randomBytes(4).toString('hex')}`;
  const prefix = `notifbench${randomBytes(3).toString('hex')}`;
  const dbUrl = await scratchDatabase(ADMIN_URL, dbName);
  // The push service's certificate and the services' DATA_DIR.
  removeDir(join(tmpdir(), prefix));
  const tls = selfSignedCertificate(join(tmpdir(), prefix));
  const baseEnv = {
    ...env,
    DATABASE_URL: dbUrl,
    NATS_URL: env.NATS_URL || 'nats://127.0.0.1:4222',
    BUS_PREFIX: prefix,
    DATA_DIR: join(tmpdir(), prefix),
    RATE_LIMIT_MAX: '100000000',
    // Sign-ups come from many addresses (X-Forwarded-For) through this one client.
    TRUST_PROXY: 'true',
    CONTENT_RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000',
    NODE_ENV: 'production',
    // Web Push to the bench's own push service and tarpit on 127.0.0.1: the test-only opening of
    // that one address, its certificate trusted, and room for one person's 40 silent endpoints.
    PUSH_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32',
    NODE_EXTRA_CA_CERTS: tls.certFile,
    PUSH_SUBSCRIPTIONS_PER_PERSON: String(Math.max(10, TARPITS)),
  };
  removeStreams(baseEnv.NATS_URL, prefix);
  const sockets = [];
  const pushService = await startPushService(tls);
  onCleanup('the push service', () => pushService.close());
  const tarpit = await startTarpit();
  onCleanup('the tarpit', () => tarpit.close());
  try {
    console.log(`database ${dbName}, bus prefix ${prefix}`);
    const topo = await startTopology(ROOT, baseEnv);
    console.log(`gateway ${topo.base}, notifications ${topo.service('notifications')}`);

    const t0 = performance.now();
    const recipients = await inBatches(Array.from({ length: RECIPIENTS }, (_, i) => i), 10, () => signUp(topo.base, 'owner'));
    const actors = await inBatches(Array.from({ length: ACTORS }, (_, i) => i), 10, () => signUp(topo.base, 'fan'));
    const timelineOf = new Map();
    await inBatches(recipients, 10, async (owner) => {
      const timeline = await api(topo.base, 'POST', '/api/timelines', { token: owner.token, body: { title: `Bench ${owner.id.slice(0, 8)}`, visibility: 'public' } });
      await api(topo.base, 'PATCH', `/api/timelines/${timeline.id}`, { token: owner.token, body: { status: 'published' } });
      timelineOf.set(owner.id, timeline.id);
    });
    console.log(`${RECIPIENTS} owners with a timeline and ${ACTORS} fans signed up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // The first notification message about each timeline, on any socket of its owner.
    // A message may even beat the like's answer to this process: that counts as 0.
    const answeredAt = new Map();
    const arrivedAt = new Map();
    const latencies = [];
    const onMessage = (message) => {
      if (message.type !== 'notification') return;
      const key = `${message.notification.target.id}:${message.notification.count}`;
      if (arrivedAt.has(key)) return;
      const now = performance.now();
      arrivedAt.set(key, now);
      const answered = answeredAt.get(key);
      if (answered !== undefined) latencies.push(now - answered);
    };
    const t1 = performance.now();
    const owners = Array.from({ length: SOCKETS }, (_, i) => recipients[i % recipients.length]);
    sockets.push(...(await inBatches(owners, 100, (owner) => openSocket(topo.base, owner, onMessage))));
    console.log(`${sockets.length} sockets authenticated and subscribed in ${((performance.now() - t1) / 1000).toFixed(1)} s`);

    // Each like is a new person on a timeline: its entry grows to a known count.
    const grown = new Map();
    const likes = [];
    for (let i = 0; i < LIKES && i < RECIPIENTS * ACTORS; i++) {
      const owner = recipients[i % RECIPIENTS];
      const actor = actors[Math.floor(i / RECIPIENTS) % ACTORS];
      const timelineId = timelineOf.get(owner.id);
      const count = (grown.get(timelineId) ?? 0) + 1;
      grown.set(timelineId, count);
      likes.push({ actor, timelineId, key: `${timelineId}:${count}` });
    }
    let likeErrors = 0;
    const started = performance.now();
    await Promise.all(likes.map(async (like, i) => {
      await sleep(started + (i * 1000) / LIKE_RATE - performance.now());
      try {
        await api(topo.base, 'POST', `/api/timelines/${like.timelineId}/like`, { token: like.actor.token });
        const answered = performance.now();
        answeredAt.set(like.key, answered);
        const arrived = arrivedAt.get(like.key);
        if (arrived !== undefined) latencies.push(Math.max(0, arrived - answered));
      } catch {
        likeErrors++;
      }
    }));
    const deadline = Date.now() + 10_000;
    while (latencies.length < likes.length - likeErrors && Date.now() < deadline) await sleep(100);
    const delivery = summary(latencies);
    const missing = likes.length - likeErrors - latencies.length;
    console.log(`\nlike answered → /ws message on the owner's socket, ${likes.length} likes at ${LIKE_RATE}/s with ${sockets.length} sockets connected:`);
    console.log(`  p50 ${ms(delivery.p50)}  p95 ${ms(delivery.p95)}  p99 ${ms(delivery.p99)}  max ${ms(delivery.max)}  missing ${missing}  like errors ${likeErrors}  (p95 ≤ 250 ms: ${delivery.p95 <= 250 && missing === 0 ? 'met' : 'not met'})`);

    // Where the time goes, per like event: social's outbox relay, then the notifications consumer,
    // then the notifications service's own outbox relay and its delivery consumer (socket, push).
    const db = new pg.Client({ connectionString: dbUrl.toString() });
    await db.connect();
    const { rows: stages } = await db.query(`
      SELECT extract(epoch from o.dispatched_at - o.occurred_at) * 1000 AS relay_ms,
             extract(epoch from i.processed_at - o.dispatched_at) * 1000 AS consumer_ms
        FROM social.outbox o JOIN notifications.inbox i ON i.event_id = o.id
       WHERE o.type = 'social.reaction.changed'`);
    const { rows: deliveries } = await db.query(`
      SELECT extract(epoch from o.dispatched_at - o.occurred_at) * 1000 AS relay_ms,
             extract(epoch from i.processed_at - o.dispatched_at) * 1000 AS consumer_ms
        FROM notifications.outbox o JOIN notifications.inbox i ON i.event_id = o.id AND i.consumer = 'notifications-delivery'
       WHERE o.type = 'notifications.notification.changed'`);
    await db.end();
    const relay = summary(stages.map((r) => Number(r.relay_ms)));
    const consumer = summary(stages.map((r) => Number(r.consumer_ms)));
    const ownRelay = summary(deliveries.map((r) => Number(r.relay_ms)));
    const deliveryGroup = summary(deliveries.map((r) => Number(r.consumer_ms)));
    console.log(`  of which: social's commit → published p50 ${ms(relay.p50)} p95 ${ms(relay.p95)}; published → notifications' inbox p50 ${ms(consumer.p50)} p95 ${ms(consumer.p95)}`);
    console.log(`            notifications' commit → its NotificationChanged published p50 ${ms(ownRelay.p50)} p95 ${ms(ownRelay.p95)}; published → delivery group's inbox p50 ${ms(deliveryGroup.p50)} p95 ${ms(deliveryGroup.p95)}`);

    const platform = await import('@timeliner/platform');
    const direct = new Pool(topo.service('notifications'), { connections: 64, keepAliveTimeout: 30_000 });
    const gateway = new Pool(topo.base, { connections: 64, keepAliveTimeout: 30_000 });
    const url = '/api/notifications/unread-count';
    const paths = {
      service: async (i) => {
        const caller = recipients[i % recipients.length];
        const requestId = randomUUID();
        const headers = { 'x-request-id': requestId, ...platform.signIdentity(topo.secret, { userId: caller.id, sessionId: randomUUID(), clientIp: '127.0.0.1' }, { requestId, method: 'GET', url }) };
        const res = await direct.request({ method: 'GET', path: url, headers });
        return { status: res.statusCode, body: await res.body.text() };
      },
      gateway: async (i) => {
        const res = await gateway.request({ method: 'GET', path: url, headers: { authorization: `Bearer ${recipients[i % recipients.length].token}` } });
        return { status: res.statusCode, body: await res.body.text() };
      },
    };
    console.log(`\nGET ${url}, ${COUNT_RATE}/s for ${SECONDS} s (open loop):`);
    for (const [name, get] of Object.entries(paths)) {
      await fixedRate(get, 100, 2);
      const r = await fixedRate(get, COUNT_RATE, SECONDS);
      const bar = name === 'service' ? `  (p95 ≤ 10 ms: ${r.p95 <= 10 && r.errors === 0 ? 'met' : 'not met'})` : '';
      console.log(`  ${name.padEnd(8)} achieved ${r.achieved.toFixed(0).padStart(4)}/s  p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  p99 ${ms(r.p99)}  max ${ms(r.max)}  errors ${r.errors}${r.firstError ? ` (${r.firstError})` : ''}${bar}`);
    }
    await direct.close();
    await gateway.close();

    // Web Push: another person's push while one person's 40 endpoints never answer.
    const [silent, other] = [recipients[0], recipients[1]];
    const t2 = performance.now();
    await inBatches(Array.from({ length: TARPITS }, (_, i) => i), 10, (i) =>
      api(topo.base, 'POST', '/api/notifications/push-subscriptions', { token: silent.token, body: { endpoint: `${tarpit.origin}/push/silent-${i}`, keys: browserKeys() } }));
    await api(topo.base, 'POST', '/api/notifications/push-subscriptions', { token: other.token, body: { endpoint: `${pushService.origin}/push/other`, keys: browserKeys() } });
    console.log(`\nWeb Push: ${TARPITS} subscriptions of one person at a port that accepts and never answers, one of another person at the push service (${((performance.now() - t2) / 1000).toFixed(1)} s)`);
    // Fans that have not liked these two timelines yet (the socket phase used the first ones).
    const fans = actors.slice(Math.ceil(LIKES / RECIPIENTS)).concat(await inBatches(Array.from({ length: 2 * PUSHES }, (_, i) => i), 10, () => signUp(topo.base, 'pushfan')));
    let fan = 0;
    const pushLatencies = async (withSilent) => {
      const latencies = [];
      let missing = 0;
      for (let i = 0; i < PUSHES; i++) {
        const started = performance.now();
        if (withSilent) await api(topo.base, 'POST', `/api/timelines/${timelineOf.get(silent.id)}/like`, { token: fans[fan % fans.length].token });
        const before = pushService.arrivals.length;
        await api(topo.base, 'POST', `/api/timelines/${timelineOf.get(other.id)}/like`, { token: fans[fan++ % fans.length].token });
        const answered = performance.now();
        const deadline = answered + 15_000;
        while (pushService.arrivals.length === before && performance.now() < deadline) await sleep(5);
        const arrival = pushService.arrivals.slice(before).find((a) => a.path === '/push/other');
        if (arrival) latencies.push(Math.max(0, arrival.at - answered));
        else missing++;
        await sleep(Math.max(0, started + 1_000 - performance.now()));
      }
      return { ...summary(latencies), missing };
    };
    const alone = await pushLatencies(false);
    console.log(`  like answered → push at the push service, alone:                         p50 ${ms(alone.p50)}  max ${ms(alone.max)}  missing ${alone.missing}`);
    const held = await pushLatencies(true);
    const stats = tarpit.stats();
    console.log(`  the same, each second a like also pushing to the ${TARPITS} silent endpoints: p50 ${ms(held.p50)}  max ${ms(held.max)}  missing ${held.missing}  (≤ 2 s: ${held.max <= 2_000 && held.missing === 0 ? 'met' : 'not met'})`);
    console.log(`  tarpit: ${stats.total} connections, at most ${stats.most} open at once (the service sends at most 4 at once per person, 16 per push service host)`);
  } finally {
    if (env.NOTIF_BENCH_LOG) console.log(processOutput());
    for (const socket of sockets) socket.terminate();
    await cleanup();
  }
}

main().catch((error) => {
  if (interrupted()) return;
  console.error(error);
  process.exitCode = 1;
});
