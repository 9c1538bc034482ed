import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createEventBus, createLogger, type EventBus, FileMailSender, type RunningService, signIdentity } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, type TestDatabase, type TestSchema, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { authSchema, startAuthService } from '../../services/auth/src/index.js';
import { searchSchema, startSearchService } from '../../services/search/src/index.js';
import { socialSchema, startSocialService } from '../../services/social/src/index.js';
import { startTimelinesService, timelinesSchema } from '../../services/timelines/src/index.js';

/**
 * A person who asked for their account to be deleted is out of everyone else's sight at once, for
 * the whole grace period, as a suspended person is (issue 29): auth's AccountDeletionChanged
 * reaches every read model, all real (Postgres, NATS JetStream). Then every GET route of the social
 * and timelines services (read from their OpenAPI documents, so a route added later is covered),
 * asked by a stranger and by a person whose things the deleting person liked and commented on,
 * answers 404 for the person's own things or an answer in which neither they nor their posts,
 * timelines and comments appear; their profile is 404, search finds neither them nor their
 * timeline. Cancelling the deletion (signing in within the grace period) brings all of it back.
 */
const logger = createLogger('deletion-pending', process.env.TEST_LOG_LEVEL ?? 'silent');
type Name = 'auth' | 'timelines' | 'social' | 'search';

let bus: EventBus;
let prefix: string;
let secret: string;
let work: string;
const dbs: TestDatabase[] = [];
const running = {} as Record<Name, RunningService>;

interface Person { id: string; username: string; displayName: string; password: string }
/** A person with what they made: a post, a published public timeline, and their comments on the other's timeline and post. */
interface Things { person: Person; postId: string; timelineId: string; commentIds: string[] }
let ada: Things, bob: Things;
const sam = {} as Person;

function call(name: Name, method: 'get' | 'post' | 'patch', path: string, userId?: string) {
  const requestId = `pending-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(secret, { userId, sessionId: userId ? randomUUID() : undefined, clientIp: '198.51.100.77' }, { requestId, method: method.toUpperCase(), url: path });
  return request(running[name].url)[method](path).set(headers).set('x-request-id', requestId);
}
const rows = async <T>(name: Name, sql: string, params: unknown[] = []): Promise<T[]> => (await running[name].app.get(DataSource).query(sql, params)) as T[];

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
async function database(label: string, schema: TestSchema): Promise<string> {
  const db = await createTestDatabase(label, { schemas: [schema] });
  dbs.push(db);
  return db.url;
}

async function register(person: Person, handle: string, displayName: string): Promise<void> {
  Object.assign(person, { username: `${handle}_${randomBytes(3).toString('hex')}`, displayName, password: `Pw-${randomBytes(12).toString('hex')}` });
  const res = await call('auth', 'post', '/api/auth/register').send({ username: person.username, email: `${person.username}@example.com`, password: person.password, displayName });
  expect(res.status).toBe(201);
  person.id = res.body.user.id as string;
}

async function make(person: Person, topic: string): Promise<Things> {
  const timelineId = (await call('timelines', 'post', '/api/timelines', person.id).send({ title: `${person.displayName} on ${topic}`, description: `All about ${topic}`, visibility: 'public' }).expect(201)).body.id as string;
  await call('timelines', 'patch', `/api/timelines/${timelineId}`, person.id).send({ status: 'published' }).expect(200);
  const postId = (await call('social', 'post', '/api/posts', person.id).send({ content: `${person.displayName} writes about #${topic}` }).expect(201)).body.id as string;
  return { person, postId, timelineId, commentIds: [] };
}

beforeAll(async () => {
  prefix = testBusPrefix('delpending');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  work = await mkdtemp(join(tmpdir(), 'deletion-pending-test-'));
  const common = { bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
  running.auth = await startAuthService({ ...common, databaseUrl: await database('pendauth', authSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  running.timelines = await startTimelinesService({ ...common, databaseUrl: await database('pendtimelines', timelinesSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  running.social = await startSocialService({ ...common, databaseUrl: await database('pendsocial', socialSchema) });
  running.search = await startSearchService({ ...common, databaseUrl: await database('pendsearch', searchSchema) });

  const people = { ada: {} as Person, bob: {} as Person };
  await register(people.ada, 'ada', 'Ada Lovelace');
  await register(people.bob, 'bob', 'Bob Babbage');
  await register(sam, 'sam', 'Sam Stranger');
  for (const name of ['social', 'timelines', 'search'] as const) {
    await until(async () => (await rows<{ n: number }>(name, 'SELECT count(*)::int AS n FROM users WHERE id = ANY($1::uuid[])', [[people.ada.id, people.bob.id, sam.id]]))[0]!.n === 3, 15_000, `${name} to know the people`);
  }
  ada = await make(people.ada, 'engines');
  bob = await make(people.bob, 'looms');
  await until(async () => (await rows('social', `SELECT 1 FROM feed_timelines WHERE status = 'published'`)).length === 2, 15_000, 'social to know the timelines');
  // Ada follows Bob, liked and commented on his timeline and post; Sam follows Ada, so his feed shows her post.
  await call('social', 'post', `/api/users/${bob.person.id}/follow`, ada.person.id).expect(200);
  await call('social', 'post', `/api/users/${ada.person.id}/follow`, sam.id).expect(200);
  await call('social', 'post', `/api/timelines/${bob.timelineId}/like`, ada.person.id).expect(200);
  await call('social', 'post', `/api/posts/${bob.postId}/like`, ada.person.id).expect(200);
  for (const path of [`/api/timelines/${bob.timelineId}/comments`, `/api/posts/${bob.postId}/comments`]) {
    ada.commentIds.push((await call('social', 'post', path, ada.person.id).send({ content: 'Splendid work' }).expect(201)).body.id as string);
  }
  await until(async () => (await rows('search', `SELECT 1 FROM timelines WHERE id = $1`, [ada.timelineId])).length === 1, 15_000, 'search to know her timeline');
}, 120_000);

afterAll(async () => {
  for (const name of ['search', 'social', 'timelines', 'auth'] as const) await running[name]?.close();
  await bus?.close();
  await deleteBusStreams(testNatsUrl(), prefix).catch(() => undefined);
  for (const db of dbs) await db.drop();
  await rm(work, { recursive: true, force: true });
}, 60_000);

/** Every GET route of a service. */
async function readRoutes(name: 'social' | 'timelines'): Promise<string[]> {
  const doc = (await request(running[name].url).get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).filter(([, ops]) => 'get' in ops).map(([template]) => template);
}

/** The path of a route about `whose` things; null when a parameter names nothing this test knows. */
function fill(template: string, whose: Things): string | null {
  const kind = /^\/api\/(users|posts|timelines|follow-requests)\//u.exec(template)?.[1];
  const id = { users: whose.person.id, posts: whose.postId, timelines: whose.timelineId, 'follow-requests': whose.person.id }[kind ?? ''];
  let path = template;
  if (id) path = path.replace('{id}', id).replace('{userId}', whose.person.id);
  path = path.replace('{timelineId}', whose.timelineId);
  return /\{/u.test(path) ? null : path;
}

/** What others would see of Ada. */
const traces = () => [ada.person.id, ada.person.username, ada.person.displayName, ada.postId, ada.timelineId, ...ada.commentIds];

/** What a reader sees of Ada where she is easiest to find: her profile, her post and timeline, her comment under Bob's post, Sam's feed, search. */
async function seen(reader: string): Promise<Record<string, boolean>> {
  const found = (body: unknown) => traces().some((trace) => JSON.stringify(body ?? '').includes(trace));
  const search = (await call('search', 'get', `/api/search/enhanced?q=${encodeURIComponent('engines')}`, reader).expect(200)).body as { users: unknown[]; timelines: Array<{ id: string }> };
  const people = (await call('search', 'get', `/api/search/enhanced?type=users&q=${encodeURIComponent(ada.person.username)}`, reader).expect(200)).body as unknown;
  return {
    profile: (await call('auth', 'get', `/api/users/${ada.person.id}/profile`, reader)).status === 200,
    post: (await call('social', 'get', `/api/posts/${ada.postId}`, reader)).status === 200,
    timeline: (await call('timelines', 'get', `/api/timelines/${ada.timelineId}`, reader)).status === 200,
    comments: found((await call('social', 'get', `/api/posts/${bob.postId}/comments`, reader).expect(200)).body),
    feed: found((await call('social', 'get', '/api/feed?tab=following', sam.id).expect(200)).body),
    search: search.timelines.some((t) => t.id === ada.timelineId) || found(people),
  };
}
const everywhere = (shown: boolean) => ({ profile: shown, post: shown, timeline: shown, comments: shown, feed: shown, search: shown });

describe('a deletion asked for takes the person out of sight until it is cancelled', () => {
  it('shows the person to others before', async () => {
    expect(await seen(sam.id)).toEqual(everywhere(true));
  });

  it('hides the person, their things and their part in others\' things from everyone else at once', async () => {
    await call('auth', 'post', '/api/auth/account/deletion', ada.person.id).send({ password: ada.person.password }).expect(202);
    await until(async () => Object.values(await seen(sam.id)).every((shown) => !shown), 20_000, 'her to leave everyone\'s sight');
    expect(await seen(bob.person.id)).toEqual(everywhere(false));

    const leaks: string[] = [];
    let asked = 0;
    for (const viewer of [sam.id, bob.person.id]) {
      for (const service of ['social', 'timelines'] as const) {
        for (const template of await readRoutes(service)) {
          for (const [about, whose] of [['hers', ada], ['Bob\'s', bob]] as const) {
            const path = template.includes('{') ? fill(template, whose) : about === 'hers' ? template : null;
            if (path === null) continue;
            const res = await call(service, 'get', path, viewer);
            asked += 1;
            if (res.status >= 500) leaks.push(`${service} ${template} about ${about}: ${res.status}`);
            // Her own things' routes: as if absent.
            if (/^\/api\/(posts|timelines)\/\{id\}/u.test(template) && about === 'hers' && res.status !== 404) leaks.push(`${service} ${template} about ${about}: ${res.status}, not 404`);
            const text = JSON.stringify(res.body ?? '');
            for (const trace of traces()) if (text.includes(trace)) leaks.push(`${service} ${template} about ${about} to ${viewer === sam.id ? 'Sam' : 'Bob'} shows ${trace}`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(asked).toBeGreaterThanOrEqual(100);
    // Nothing of hers is gone meanwhile: the grace period keeps it all.
    expect(await rows('social', 'SELECT 1 FROM posts WHERE id = $1', [ada.postId])).toHaveLength(1);
  }, 120_000);

  it('brings everything back when the person signs in and cancels the deletion', async () => {
    const offer = await call('auth', 'post', '/api/auth/login').send({ login: ada.person.username, password: ada.person.password }).expect(202);
    const token = (offer.body as { deletionPending: { token: string } }).deletionPending.token;
    const cancelled = await call('auth', 'post', '/api/auth/account/deletion/cancel').send({ token });
    expect(cancelled.status).toBeLessThan(300);
    await until(async () => Object.values(await seen(sam.id)).every((shown) => shown), 20_000, 'her to be back in sight');
    expect(await seen(bob.person.id)).toEqual(everywhere(true));
    // Her profile to herself never went away; her timelines list shows her timeline to others again.
    const listed = (await call('social', 'get', `/api/users/${ada.person.id}/timelines`, sam.id).expect(200)).body as Array<{ id: string }>;
    expect(listed.map((t) => t.id)).toEqual([ada.timelineId]);
  }, 60_000);
});
