// RedisRateCounter against a redis-server of this test's own (so it can be stopped): counts in
// Redis, falls back to the replica's memory while Redis is gone (logged once, counted), and
// counts in Redis again when it is back.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Logger } from '@timeliner/platform';
import { Redis } from 'ioredis';
import { RedisRateCounter } from '../src/http/rate-counter.js';
import { eventually } from './support/test-bus.js';

const REDIS_SERVER = process.env.TEST_REDIS_SERVER ?? 'redis-server';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A logger that keeps what was said at warn and info. */
function recordingLogger() {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const record = (level: string) => (fields: Record<string, unknown> | string, message?: string) =>
    lines.push(typeof fields === 'string' ? { level, message: fields, fields: {} } : { level, message: message ?? '', fields });
  return { lines, logger: { warn: record('warn'), info: record('info'), debug: () => undefined } as unknown as Logger };
}

describe('RedisRateCounter', () => {
  let port: number;
  let server: ChildProcess | undefined;

  const startRedis = async () => {
    server = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => null });
    await eventually(async () => {
      await probe.connect().catch(() => undefined);
      expect(await probe.ping()).toBe('PONG');
    }, 10_000);
    probe.disconnect();
  };

  const stopRedis = async () => {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server!.kill('SIGKILL');
    await exited;
  };

  beforeAll(async () => {
    if (spawnSync(REDIS_SERVER, ['--version']).status !== 0) throw new Error(`${REDIS_SERVER} is needed (apt-get install redis-server)`);
    port = await freePort();
    await startRedis();
  });

  afterAll(async () => {
    if (server?.exitCode === null) await stopRedis();
  });

  it('counts in Redis, in memory while Redis is gone, and in Redis again once it is back', async () => {
    const { lines, logger } = recordingLogger();
    let fallbacks = 0;
    const counter = new RedisRateCounter({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'test:', logger, onFallback: () => fallbacks++ });
    const other = new RedisRateCounter({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'test:', logger: recordingLogger().logger });
    try {
      expect(await counter.waitUntilConnected(5_000)).toBe(true);
      expect(await other.waitUntilConnected(5_000)).toBe(true);
      // Two replicas, one count.
      expect((await counter.hit('a', 60_000)).count).toBe(1);
      expect((await other.hit('a', 60_000)).count).toBe(2);
      const window = await counter.hit('a', 60_000);
      expect(window.count).toBe(3);
      expect(window.resetInMs).toBeGreaterThan(59_000);
      expect(window.resetInMs).toBeLessThanOrEqual(60_000);

      await stopRedis();
      // Each replica alone now; answered at once, not after a timeout.
      const started = performance.now();
      const during = [await counter.hit('a', 60_000), await counter.hit('a', 60_000)];
      expect(performance.now() - started).toBeLessThan(200);
      expect(during.map((w) => w.count)).toEqual([1, 2]);
      expect(fallbacks).toBe(2);
      expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual(['Redis is not answering: rate limits are counted in this replica until it is back']);

      await startRedis();
      expect(await counter.waitUntilConnected(10_000)).toBe(true);
      expect(await other.waitUntilConnected(10_000)).toBe(true);
      expect([(await counter.hit('b', 60_000)).count, (await other.hit('b', 60_000)).count]).toEqual([1, 2]);
      const back = lines.find((l) => l.message === 'Redis is back: rate limits are shared again');
      expect(back?.fields).toMatchObject({ localHits: 2 });
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    } finally {
      await counter.close();
      await other.close();
    }
  });

  it('starts counting in memory, saying so once, when Redis is not there at start', async () => {
    const { lines, logger } = recordingLogger();
    const counter = new RedisRateCounter({ url: `redis://127.0.0.1:${await freePort()}`, keyPrefix: 'test:', logger });
    try {
      expect(await counter.waitUntilConnected(300)).toBe(false);
      expect((await counter.hit('a', 1_000)).count).toBe(1);
      expect((await counter.hit('a', 1_000)).count).toBe(2);
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    } finally {
      await counter.close();
    }
  });
});
