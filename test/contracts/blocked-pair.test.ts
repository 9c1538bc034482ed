import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createLogger, type RunningService, signIdentity } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { MediaEvents, MediaType } from '@timeliner/proto';
import { startSocialService } from '../../services/social/src/index.js';
import { type Person, startHarness, type TimelinesHarness } from '../../services/timelines/test/harness.js';

/**
 * A blocked pair never see each other (issue 28): every GET route of the social and timelines
 * services, read from their OpenAPI documents (so a route added later is covered without being named), asked by
 * the blocker about the blocked person's things and by the blocked person about the blocker's,
 * and about a third person's things they both commented on, answers 404 or an answer in which
 * the other person and their posts, timelines, videos and comments do not appear.
 */
type Side = 'blocker' | 'blocked';
interface Things {
  person: Person;
  postId: string;
  timelineId: string;
  videoId: string;
  /** Their comments: on the third person's timeline, video and post. */
  commentIds: string[];
  collectionId: string;
}

let timelines: TimelinesHarness;
let social: RunningService;
let socialDb: TestDatabase;
let third: Things;
const things = {} as Record<Side, Things>;

function call(method: 'get' | 'post' | 'delete' | 'patch', path: string, who: Person, base = social.url) {
  const requestId = `blocked-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(timelines.secret, { userId: who.userId, sessionId: who.sessionId, clientIp: '198.51.100.9' }, { requestId, method: method.toUpperCase(), url: path });
  return request(base)[method](path).set(headers).set('x-request-id', requestId);
}

async function setUp(displayName: string): Promise<Things> {
  const person = await timelines.register({ displayName });
  const created = await timelines.call('post', '/api/timelines', person).send({ title: `${displayName}'s trip`, visibility: 'public' }).expect(201);
  const timelineId = (created.body as { id: string }).id;
  await timelines.call('patch', `/api/timelines/${timelineId}`, person).send({ status: 'published' }).expect(200);
  const videoId = randomUUID();
  await timelines.publish(MediaEvents.UploadCompleted, { mediaId: videoId, timelineId, uploaderId: person.userId, mediaType: MediaType.VIDEO, originalName: 'clip.mp4', mimeType: 'video/mp4', size: 1024n });
  const postId = ((await call('post', '/api/posts', person).send({ content: `${displayName} says hello` }).expect(201)).body as { id: string }).id;
  const collectionId = ((await call('post', '/api/collections', person).send({ name: `${displayName}'s picks` }).expect(201)).body as { id: string }).id;
  return { person, postId, timelineId, videoId, commentIds: [], collectionId };
}

const socialQuery = async <T>(sql: string, params: unknown[] = []) => (await social.app.get((await import('typeorm')).DataSource).query(sql, params)) as T[];

beforeAll(async () => {
  timelines = await startHarness('blockedpair');
  socialDb = await createTestDatabase('blockedpairsocial');
  social = await startSocialService({ databaseUrl: socialDb.url, bus: timelines.bus, logger: createLogger('blocked-pair', process.env.TEST_LOG_LEVEL ?? 'silent'), identitySecret: timelines.secret, port: 0, host: '127.0.0.1' });
  things.blocker = await setUp('Bea Blocker');
  things.blocked = await setUp('Ben Blocked');
  third = await setUp('Tia Third');
  await timelines.waitFor(async () => (await socialQuery('SELECT id FROM videos')).length === 3 && (await socialQuery(`SELECT id FROM feed_timelines WHERE status = 'published'`)).length === 3, 15_000);
  for (const side of ['blocker', 'blocked'] as const) {
    const { person } = things[side];
    const other = things[side === 'blocker' ? 'blocked' : 'blocker'];
    // Before the block: they follow, like and comment on each other's things and on the third person's.
    await call('post', `/api/users/${other.person.userId}/follow`, person).expect(200);
    await call('post', `/api/timelines/${other.timelineId}/like`, person).expect(200);
    await call('post', `/api/posts/${other.postId}/like`, person).expect(200);
    await call('post', `/api/timelines/${other.timelineId}/comments`, person).send({ content: `${side} on the other's timeline` }).expect(201);
    for (const [path, body] of [
      [`/api/timelines/${third.timelineId}/comments`, { content: `${side} on the third timeline` }],
      [`/api/videos/${third.videoId}/comments`, { content: `${side} on the third video` }],
      [`/api/posts/${third.postId}/comments`, { content: `${side} on the third post` }],
    ] as const) {
      things[side].commentIds.push(((await call('post', path, person).send(body).expect(201)).body as { id: string }).id);
    }
    await call('post', `/api/timelines/${third.timelineId}/like`, person).expect(200);
  }
  await call('post', `/api/users/${things.blocked.person.userId}/block`, things.blocker.person).expect(200);
}, 90_000);

afterAll(async () => {
  await social?.close();
  await socialDb?.drop();
  await timelines?.close();
});

/** Every GET route of the social and timelines services, with the service that answers it. */
async function readRoutes(): Promise<Array<{ base: string; template: string }>> {
  const found: Array<{ base: string; template: string }> = [];
  for (const base of [social.url, timelines.service.url]) {
    const doc = (await request(base).get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    for (const [template, ops] of Object.entries(doc.paths)) if ('get' in ops) found.push({ base, template });
  }
  return found;
}

/** The path of a route about `whose` things; null when a parameter names nothing this test knows (the test then fails). */
function fill(template: string, whose: Things): string | null {
  let path = template;
  const kind = /^\/api\/(users|posts|timelines|videos|collections|follow-requests)\//u.exec(template)?.[1];
  const id = { users: whose.person.userId, posts: whose.postId, timelines: whose.timelineId, videos: whose.videoId, collections: whose.collectionId, 'follow-requests': whose.person.userId }[kind ?? ''];
  if (id) path = path.replace('{id}', id).replace('{userId}', whose.person.userId);
  path = path.replace('{commentId}', whose.commentIds[1] ?? '').replace('{timelineId}', whose.timelineId)
    // an invitation is nobody's content: an unknown one is simply not found
    .replace('{token}', randomUUID()).replace('{idOrToken}', randomUUID());
  return /\{/u.test(path) ? null : path;
}

/** Everything that would give the other person away in an answer. */
const tracesOf = (t: Things) => [t.person.userId, t.person.username, t.person.displayName, t.postId, t.timelineId, t.videoId, t.collectionId, ...t.commentIds];

describe('a blocked pair never see each other', () => {
  it('reads the routes from the OpenAPI documents of social and timelines', async () => {
    const routes = await readRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(25);
    for (const base of [social.url, timelines.service.url]) expect(routes.some((r) => r.base === base)).toBe(true);
  });

  it('has removed the follows both ways', async () => {
    expect(await socialQuery('SELECT 1 FROM follows WHERE follower_id = ANY($1::uuid[]) AND following_id = ANY($1::uuid[])', [[things.blocker.person.userId, things.blocked.person.userId]])).toEqual([]);
  });

  it.each(['blocker', 'blocked'] as const)('the %s asks every read route', async (side) => {
    const viewer = things[side].person;
    const other = things[side === 'blocker' ? 'blocked' : 'blocker'];
    const leaks: string[] = [];
    for (const { base, template } of await readRoutes()) {
      for (const [about, whose] of [['the other', other], ['the third', third], ['their own', things[side]]] as const) {
        const path = template.includes('{') ? fill(template, whose) : about === 'the other' ? template : null;
        if (path === null) {
          if (template.includes('{') && about === 'the other') leaks.push(`${template}: a parameter this test cannot fill`);
          continue;
        }
        const res = await call('get', path, viewer, base);
        if (res.status >= 500) leaks.push(`${template} about ${about}: ${res.status}`);
        if (about === 'the other' && template.includes('{') && res.status !== 404) leaks.push(`${template} about ${about}: ${res.status}, not 404`);
        // The one place the blocker sees the blocked person: their own list of blocked accounts, to unblock.
        if (template === '/api/blocks' && side === 'blocker') continue;
        const text = JSON.stringify(res.body ?? '');
        for (const trace of tracesOf(other)) if (text.includes(trace)) leaks.push(`${template} about ${about} shows ${trace}`);
      }
    }
    expect(leaks).toEqual([]);
  }, 60_000);

  it('lets neither follow, like nor comment on the other', async () => {
    for (const side of ['blocker', 'blocked'] as const) {
      const viewer = things[side].person;
      const other = things[side === 'blocker' ? 'blocked' : 'blocker'];
      await call('post', `/api/users/${other.person.userId}/follow`, viewer).expect(404);
      await call('post', `/api/timelines/${other.timelineId}/like`, viewer).expect(404);
      await call('post', `/api/posts/${other.postId}/like`, viewer).expect(404);
      await call('post', `/api/timelines/${other.timelineId}/comments`, viewer).send({ content: 'still here?' }).expect(404);
      await call('post', `/api/videos/${other.videoId}/comments`, viewer).send({ content: 'still here?' }).expect(404);
      await call('post', `/api/posts/${other.postId}/comments`, viewer).send({ content: 'still here?' }).expect(404);
    }
  });

  it('lists the block in settings, and unblocking lets them see each other again', async () => {
    const list = (await call('get', '/api/blocks', things.blocker.person).expect(200)).body as Array<{ id: string }>;
    expect(list.map((p) => p.id)).toEqual([things.blocked.person.userId]);
    expect((await call('get', '/api/blocks', things.blocked.person).expect(200)).body).toEqual([]);
    await call('delete', `/api/users/${things.blocked.person.userId}/block`, things.blocker.person).expect(200);
    await call('get', `/api/users/${things.blocked.person.userId}/followers`, things.blocker.person).expect(200);
    await call('get', `/api/posts/${things.blocker.postId}`, things.blocked.person).expect(200);
    expect((await call('get', '/api/blocks', things.blocker.person).expect(200)).body).toEqual([]);
  });
});
