import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createEventBus, createLogger, type EventBus, type RunningService, signIdentity } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { startAuthService } from '../../services/auth/src/index.js';
import { startSocialService } from '../../services/social/src/index.js';

/**
 * Profile counts are exact across services: the social service keeps follows and likes, the auth
 * service answers the profile from their events alone. After a storm of concurrent follows,
 * unfollows, likes and unlikes, and after the auth service's consumer replays the whole stream
 * from the start (every event delivered a second time), every profile's followers, following and
 * likes received equal a fresh count of the social service's rows.
 */
const PEOPLE = 8;
const IN_FLIGHT = 32;
const logger = createLogger('profile-counts', process.env.TEST_LOG_LEVEL ?? 'silent');

let bus: EventBus;
let prefix: string;
let secret: string;
let authDb: TestDatabase;
let socialDb: TestDatabase;
let auth: RunningService;
let social: RunningService;
let nats: NatsConnection;
const people: Array<{ id: string; postId: string }> = [];

const startAuth = () => startAuthService({ databaseUrl: authDb.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' });

function call(service: RunningService, method: 'get' | 'post' | 'delete', path: string, userId?: string, ip = '198.51.100.9') {
  const requestId = `counts-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(secret, { userId, sessionId: userId ? randomBytes(16).toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') : undefined, clientIp: ip }, { requestId, method: method.toUpperCase(), url: path });
  return request(service.url)[method](path).set(headers).set('x-request-id', requestId);
}

const socialRows = async (sql: string, params: unknown[] = []) => (await social.app.get<DataSource>((await import('typeorm')).DataSource).query(sql, params)) as Array<Record<string, number>>;

/** What the profiles should say: a fresh count of the social service's rows, per person. */
async function freshCounts(): Promise<Record<string, { followersCount: number; followingCount: number; totalLikes: number }>> {
  const counts: Record<string, { followersCount: number; followingCount: number; totalLikes: number }> = {};
  for (const { id } of people) {
    const [row] = await socialRows(
      `SELECT (SELECT count(*) FROM follows WHERE following_id = $1)::int AS followers,
              (SELECT count(*) FROM follows WHERE follower_id = $1)::int AS following,
              (SELECT count(*) FROM post_likes l JOIN posts p ON p.id = l.post_id WHERE p.user_id = $1)::int AS likes`,
      [id],
    );
    counts[id] = { followersCount: row!.followers!, followingCount: row!.following!, totalLikes: row!.likes! };
  }
  return counts;
}

async function profileCounts(): Promise<Record<string, { followersCount: number; followingCount: number; totalLikes: number }>> {
  const counts: Record<string, { followersCount: number; followingCount: number; totalLikes: number }> = {};
  for (const { id } of people) {
    const res = await call(auth, 'get', `/api/users/${id}/profile`, people[0]!.id).expect(200);
    counts[id] = { followersCount: res.body.followersCount, followingCount: res.body.followingCount, totalLikes: res.body.totalLikes };
  }
  return counts;
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  prefix = testBusPrefix('profilecounts');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  authDb = await createTestDatabase('profilecountsauth');
  socialDb = await createTestDatabase('profilecountssocial');
  auth = await startAuth();
  social = await startSocialService({ databaseUrl: socialDb.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' });
  nats = await connect({ servers: testNatsUrl() });
  for (let i = 0; i < PEOPLE; i++) {
    const handle = `count_${randomBytes(4).toString('hex')}`;
    const res = await call(auth, 'post', '/api/auth/register', undefined, `198.51.100.${20 + i}`)
      .send({ username: handle, email: `${handle}@example.com`, password: 'correct-horse', displayName: `Counter ${i}` })
      .expect(201);
    people.push({ id: res.body.user.id, postId: '' });
  }
  // The social service knows people from the auth service's events.
  await until(async () => (await socialRows('SELECT count(*)::int AS n FROM users'))[0]!.n === PEOPLE, 15_000);
  for (const person of people) {
    person.postId = (await call(social, 'post', '/api/posts', person.id).send({ content: `Hello from ${person.id.slice(0, 8)}` }).expect(201)).body.id;
  }
}, 60_000);

afterAll(async () => {
  await nats?.close();
  await social?.close();
  await auth?.close();
  await bus?.close();
  await socialDb?.drop();
  await authDb?.drop();
});

describe('profile counts across services', () => {
  it('equal a fresh count of the rows after concurrent follows and likes, and after the whole stream is delivered again', async () => {
    // Every ordered pair follows, unfollows and follows again or not; every person likes and unlikes
    // the others' posts: many at once, in random order.
    const actions: Array<() => Promise<unknown>> = [];
    for (const a of people) {
      for (const b of people) {
        if (a === b) continue;
        const follow = () => call(social, 'post', `/api/users/${b.id}/follow`, a.id);
        const unfollow = () => call(social, 'delete', `/api/users/${b.id}/follow`, a.id);
        const like = () => call(social, 'post', `/api/posts/${b.postId}/like`, a.id);
        const unlike = () => call(social, 'delete', `/api/posts/${b.postId}/like`, a.id);
        actions.push(follow, follow, unfollow, like, unlike, like);
        if (Math.random() < 0.5) actions.push(unfollow);
        if (Math.random() < 0.5) actions.push(unlike);
      }
    }
    actions.sort(() => Math.random() - 0.5);
    // Thirty-two in flight at a time: enough to race on every row, while the whole storm at once
    // (some 420 requests) would only measure how long a loaded machine's pool makes them wait.
    const answers: number[] = [];
    let next = 0;
    const lane = async () => {
      while (next < actions.length) answers.push(((await actions[next++]!()) as { status: number }).status);
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    expect(answers).toHaveLength(actions.length);
    expect(answers.filter((status) => status >= 400)).toEqual([]);

    const fresh = await freshCounts();
    // Some follows and likes survive the storm, so the counts are not trivially zero.
    expect(Object.values(fresh).some((c) => c.followersCount > 0 && c.totalLikes > 0)).toBe(true);
    // The auth service applies the storm's events from the stream: on a busy machine that takes a while.
    await until(async () => JSON.stringify(await profileCounts()) === JSON.stringify(fresh), 60_000);
    expect(await profileCounts()).toEqual(fresh);

    // The auth service's consumer is removed and the service restarted: a new consumer receives
    // every event of the stream again, from the first registration on.
    await auth.close();
    const jsm = await jetstreamManager(nats);
    let removed = 0;
    for await (const stream of jsm.streams.list()) {
      if (!stream.config.name.toLowerCase().startsWith(prefix.toLowerCase())) continue;
      for await (const consumer of jsm.consumers.list(stream.config.name)) {
        if (/auth/i.test(consumer.name)) {
          await jsm.consumers.delete(stream.config.name, consumer.name);
          removed++;
        }
      }
    }
    expect(removed).toBeGreaterThan(0);
    auth = await startAuth();
    let replayed = false;
    await until(async () => {
      for await (const stream of jsm.streams.list()) {
        if (!stream.config.name.toLowerCase().startsWith(prefix.toLowerCase())) continue;
        for await (const consumer of jsm.consumers.list(stream.config.name)) {
          if (/auth/i.test(consumer.name) && consumer.num_pending === 0 && consumer.num_ack_pending === 0 && consumer.delivered.stream_seq > 0) replayed = true;
        }
      }
      return replayed;
    }, 60_000);
    expect(replayed).toBe(true);
    expect(await profileCounts()).toEqual(await freshCounts());
  }, 240_000);
});
