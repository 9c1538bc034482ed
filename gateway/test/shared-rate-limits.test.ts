// Two gateway replicas counting their rate limits in one real Redis (127.0.0.1:6379, or
// TEST_REDIS_URL): a client meets each limit once across both, not once per replica. Each run
// keeps its keys under its own prefix and deletes them afterwards.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import request from 'supertest';
import { closedPortUrl, type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { FakeAuthResponder, openTestBus, type TestBus } from './support/test-bus.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TIMELINE = '/api/timelines/8f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('rate limits shared through Redis by two gateway replicas', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let bus: TestBus;
  let upstream: FakeUpstream;
  let auth: FakeAuthResponder;
  let replicas: RunningGateway[];

  const env = {
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_MAX: '10',
    AUTH_RATE_LIMIT_MAX: '3',
    CONTENT_RATE_LIMIT_MAX: '3',
    ANONYMOUS_WRITE_LIMIT_MAX: '3',
  };

  /** Sends `count` requests, alternating between the replicas, and returns the statuses. */
  const alternate = async (count: number, send: (url: string) => request.Test): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await send(replicas[i % replicas.length]!.url)).status);
    return statuses;
  };

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    bus = await openTestBus('in-process', 'gwsharedlimits');
    upstream = await startFakeUpstream(SECRET);
    auth = await new FakeAuthResponder(bus.services).start();
    replicas = [
      await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env }),
      await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env }),
    ];
  });

  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.close();
    await upstream?.close();
    await bus?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts sign-in attempts per address across both replicas', async () => {
    const statuses = await alternate(5, (url) => request(url).post('/api/auth/login').send({ email: 'a@example.com', password: 'x' }));
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('counts a person’s content writes across both replicas, whichever session they use', async () => {
    const person = auth.signIn();
    const otherSession = auth.signIn(person.userId);
    const tokens = [person.token, otherSession.token];
    let turn = 0;
    const statuses = await alternate(4, (url) => request(url).post(`${TIMELINE}/comments`).set('authorization', `Bearer ${tokens[turn++ % 2]}`).send({ content: 'hi' }));
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts anonymous writes per address across both replicas', async () => {
    const statuses = await alternate(4, (url) => request(url).post(`${TIMELINE}/views`).send({ watchTime: 1 }));
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts all API requests per address across both replicas, and says when to come back', async () => {
    // Earlier tests spent part of this address's budget; what is left is spent across both.
    const statuses = await alternate(12, (url) => request(url).get('/api/auth/echo'));
    expect(statuses.filter((status) => status === 200).length).toBeLessThan(10);
    expect(statuses.at(-1)).toBe(429);
    const refused = await request(replicas[0]!.url).get('/api/auth/echo').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('keeps its counts under its prefix, each expiring with its window', async () => {
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.map((key) => key.slice(prefix.length).split(':')[0]).sort()).toEqual(expect.arrayContaining(['anonymous-writes', 'content', 'credentials', 'requests']));
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });

  it('keeps serving, counting in each replica, while Redis cannot be reached', async () => {
    const unreachable = `redis://127.0.0.1:${new URL(await closedPortUrl()).port}`;
    const alone = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { ...env, REDIS_URL: unreachable, AUTH_RATE_LIMIT_MAX: '2' } });
    try {
      const login = () => request(alone.url).post('/api/auth/login').send({ email: 'a@example.com', password: 'x' });
      expect([(await login()).status, (await login()).status, (await login()).status]).toEqual([200, 200, 429]);
      const metrics = await request(alone.internalUrl).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/^gateway_rate_limit_local_hits_total\{[^}]*\} [1-9]\d*$/m);
    } finally {
      await alone.close();
    }
  });
});
