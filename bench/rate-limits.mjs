#!/usr/bin/env node
// What sharing the rate limits through Redis costs a request: the same proxied `GET` through a
// gateway counting in its own memory and through one counting in Redis (REDIS_URL), each request
// passing the per-address limit, and the Redis round trip alone.
//
//   npm run build   (the gateway must be built)
//   node bench/rate-limits.mjs
//
// Steps: a stand-in upstream answering a small JSON body; two gateways in this process (the
// in-process bus, limits raised so nothing is refused), one without and one with REDIS_URL;
// for each, RATE_BENCH_REQUESTS (5,000) requests one at a time (latency p50 / p99 / max), then a
// closed loop of RATE_BENCH_CONCURRENCY (16) for RATE_BENCH_SECONDS (5) s (requests per second).
// Then one hit of the gateway's Redis counter alone, one at a time. The keys are deleted afterwards,
// also when the bench is stopped with Ctrl-C or SIGTERM (lib/cleanup.mjs).
//
// Env: REDIS_URL (redis://127.0.0.1:6379), RATE_BENCH_REQUESTS, RATE_BENCH_CONCURRENCY, RATE_BENCH_SECONDS.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { createEventBus, createLogger, loadConfig } from '@timeliner/platform';
import { createGateway, GatewayConfig, RedisRateCounter, ROUTES, RouteTable } from '@timeliner/gateway';
import { cleanup, onCleanup } from './lib/cleanup.mjs';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REQUESTS = Number(process.env.RATE_BENCH_REQUESTS ?? 5_000);
const CONCURRENCY = Number(process.env.RATE_BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.RATE_BENCH_SECONDS ?? 5);
const PREFIX = `bench:${randomBytes(4).toString('hex')}:`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (value) => value.toFixed(3);

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

async function startGateway(upstreamUrl, bus, env) {
  const config = loadConfig(GatewayConfig, {
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000000',
    REDIS_KEY_PREFIX: PREFIX,
    ...env,
  });
  const services = Object.fromEntries(new RouteTable().services().map((name) => [name, upstreamUrl]));
  // The stand-in's /api/auth/echo is called without a session: open it, as the limits are measured here, not sign-in.
  const routes = ROUTES.map((entry) => ({ ...entry, anonymous: ['GET'] }));
  const app = await createGateway({ config, logger: createLogger('bench', 'silent'), bus, services, identitySecret: randomBytes(32).toString('hex'), routes });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${app.getHttpServer().address().port}` };
}

/** One request at a time: the latency each request sees. */
async function sequential(url) {
  const pool = new Pool(url, { connections: 1 });
  const times = [];
  try {
    for (let i = 0; i < REQUESTS + 200; i++) {
      const started = performance.now();
      const { statusCode, body } = await pool.request({ path: '/api/auth/echo', method: 'GET' });
      await body.text();
      if (statusCode !== 200) throw new Error(`status ${statusCode}`);
      if (i >= 200) times.push(performance.now() - started); // the first 200 warm up
    }
  } finally {
    await pool.close();
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) };
}

/** CONCURRENCY requests in flight for SECONDS: what the gateway serves. */
async function throughput(url) {
  const pool = new Pool(url, { connections: CONCURRENCY });
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const { statusCode, body } = await pool.request({ path: '/api/auth/echo', method: 'GET' });
      await body.text();
      if (statusCode !== 200) throw new Error(`status ${statusCode}`);
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  } finally {
    await pool.close();
  }
  return done / SECONDS;
}

/** The gateway's Redis counter alone (one hit: the Lua script, one round trip), one at a time. */
async function redisAlone() {
  const counter = new RedisRateCounter({ url: REDIS_URL, keyPrefix: PREFIX, logger: createLogger('bench', 'silent') });
  if (!(await counter.waitUntilConnected(3_000))) throw new Error(`Redis does not answer at ${REDIS_URL}`);
  const times = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    await counter.hit('alone', 60_000);
    times.push(performance.now() - started);
  }
  await counter.close();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) };
}

/** The keys the gateways and the counter wrote under PREFIX. */
async function deleteKeys() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

// Everything below is undone at the end, and on Ctrl-C or SIGTERM (lib/cleanup.mjs).
onCleanup(`Redis keys ${PREFIX}*`, deleteKeys);
const upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
const upstreamUrl = await listen(upstream);
onCleanup('the stand-in upstream', () => upstream.close());
const bus = await createEventBus({ prefix: `bench${randomBytes(3).toString('hex')}`, name: 'bench' });
onCleanup('the bus', () => bus.close());
const rows = [];
let alone;
try {
  for (const [name, env] of [
    ['in memory', {}],
    ['Redis', { REDIS_URL }],
  ]) {
    const gateway = await startGateway(upstreamUrl, bus, env);
    const unregister = onCleanup(`the gateway (${name})`, () => gateway.app.close());
    const latency = await sequential(gateway.url);
    const rate = await throughput(gateway.url);
    rows.push({ name, ...latency, rate });
    unregister();
    await gateway.app.close();
  }
  alone = await redisAlone();
} finally {
  await cleanup();
}

console.log(`\nproxied GET through the gateway, ${REQUESTS} requests one at a time, then ${CONCURRENCY} in flight for ${SECONDS} s`);
console.log('limits counted in | p50 ms | p99 ms | max ms | req/s');
for (const row of rows) console.log(`${row.name.padEnd(17)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.max)} | ${row.rate.toFixed(0)}`);
const [memory, redis] = rows;
console.log(`added by Redis: p50 +${ms(redis.p50 - memory.p50)} ms, p99 +${ms(redis.p99 - memory.p99)} ms, throughput ${((redis.rate / memory.rate) * 100).toFixed(1)}% of in-memory`);
console.log(`one hit of the gateway's Redis counter alone: p50 ${ms(alone.p50)} ms, p99 ${ms(alone.p99)} ms, max ${ms(alone.max)} ms`);
