import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createLogger, type RunningService, signIdentity } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { MediaEvents, MediaType } from '@timeliner/proto';
import { startSocialService } from '../../services/social/src/index.js';
import { type Person, startHarness, type TimelinesHarness } from '../../services/timelines/test/harness.js';

/**
 * What the moderation desk took out never reaches anyone else (issue 28): every GET route of the
 * social and timelines services, read from their OpenAPI documents (so a route added later is
 * covered without being named), asked by a stranger and by the person whose things the others
 * commented on, about a hidden timeline and post, about a suspended person's things and about a
 * third person's things they commented on, answers 404 or an answer in which the hidden items,
 * the suspended person and their posts, timelines, videos and comments do not appear.
 */
interface Things {
  person: Person;
  postId: string;
  timelineId: string;
  videoId: string;
  /** Their comments on the third person's timeline, video and post. */
  commentIds: string[];
}

let timelines: TimelinesHarness;
let social: RunningService;
let socialDb: TestDatabase;
let hidden: Things, suspended: Things, third: Things, stranger: Person, moderator: Person;

const urlOf = { social: () => social.url, timelines: () => timelines.service.url };

function call(service: keyof typeof urlOf, method: 'get' | 'post', path: string, who: Person) {
  const requestId = `moderated-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(timelines.secret, { userId: who.userId, sessionId: who.sessionId, clientIp: '198.51.100.9' }, { requestId, method: method.toUpperCase(), url: path });
  return request(urlOf[service]())[method](path).set(headers).set('x-request-id', requestId);
}

async function setUp(displayName: string): Promise<Things> {
  const person = await timelines.register({ displayName });
  const created = await timelines.call('post', '/api/timelines', person).send({ title: `${displayName}'s trip`, visibility: 'public' }).expect(201);
  const timelineId = (created.body as { id: string }).id;
  await timelines.call('patch', `/api/timelines/${timelineId}`, person).send({ status: 'published' }).expect(200);
  const videoId = randomUUID();
  await timelines.publish(MediaEvents.UploadCompleted, { mediaId: videoId, timelineId, uploaderId: person.userId, mediaType: MediaType.VIDEO, originalName: 'clip.mp4', mimeType: 'video/mp4', size: 1024n });
  const postId = ((await call('social', 'post', '/api/posts', person).send({ content: `${displayName} says hello` }).expect(201)).body as { id: string }).id;
  return { person, postId, timelineId, videoId, commentIds: [] };
}

const socialQuery = async <T>(sql: string, params: unknown[] = []) => (await social.app.get(DataSource).query(sql, params)) as T[];

beforeAll(async () => {
  timelines = await startHarness('moderatedreads');
  socialDb = await createTestDatabase('moderatedreadssocial');
  social = await startSocialService({ databaseUrl: socialDb.url, bus: timelines.bus, logger: createLogger('moderated-content', process.env.TEST_LOG_LEVEL ?? 'silent'), identitySecret: timelines.secret, port: 0, host: '127.0.0.1' });
  hidden = await setUp('Hal Hidden');
  suspended = await setUp('Sue Suspended');
  third = await setUp('Tia Third');
  stranger = await timelines.register({ displayName: 'Sam Stranger' });
  moderator = await timelines.register({ displayName: 'Mo Moderator' });
  await timelines.waitFor(async () => (await socialQuery('SELECT id FROM videos')).length === 3 && (await socialQuery(`SELECT id FROM feed_timelines WHERE status = 'published'`)).length === 3, 15_000);
  await timelines.waitFor(async () => (await socialQuery('SELECT 1 FROM users WHERE id = $1', [moderator.userId])).length === 1, 15_000);
  for (const side of [hidden, suspended]) {
    const { person } = side;
    await call('social', 'post', `/api/users/${third.person.userId}/follow`, person).expect(200);
    await call('social', 'post', `/api/timelines/${third.timelineId}/like`, person).expect(200);
    await call('social', 'post', `/api/posts/${third.postId}/like`, person).expect(200);
    for (const [path, body] of [
      [`/api/timelines/${third.timelineId}/comments`, { content: 'on the third timeline' }],
      [`/api/videos/${third.videoId}/comments`, { content: 'on the third video' }],
      [`/api/posts/${third.postId}/comments`, { content: 'on the third post' }],
    ] as const) {
      side.commentIds.push(((await call('social', 'post', path, person).send(body).expect(201)).body as { id: string }).id);
    }
  }
  // The stranger and the third person liked and commented on the hidden things before they were hidden.
  await call('social', 'post', `/api/timelines/${hidden.timelineId}/like`, stranger).expect(200);
  await call('social', 'post', `/api/posts/${hidden.postId}/like`, stranger).expect(200);
  await call('social', 'post', `/api/users/${suspended.person.userId}/follow`, stranger).expect(200);

  // The operator made Mo a moderator (scripts/admin.mjs, tested with the desk).
  await socialQuery(`INSERT INTO staff_roles (user_id, role) VALUES ($1, 'moderator')`, [moderator.userId]);
  const decide = (type: string, id: string) => call('social', 'post', `/api/moderation/items/${type}/${id}/decision`, moderator).send({ action: 'hide', reason: 'Against the rules' }).expect(201);
  await decide('timeline', hidden.timelineId);
  await decide('post', hidden.postId);
  for (const [type, id] of [['timeline_comment', hidden.commentIds[0]!], ['video_comment', hidden.commentIds[1]!], ['post_comment', hidden.commentIds[2]!]] as const) await decide(type, id);
  await call('social', 'post', `/api/moderation/users/${suspended.person.userId}/suspension`, moderator).send({ reason: 'Harassment' }).expect(201);
  // The timelines service applies the decisions from the events.
  await timelines.waitFor(async () => (await timelines.query('SELECT 1 FROM moderation_hidden WHERE hidden')).length >= 3, 15_000);
}, 120_000);

afterAll(async () => {
  await social?.close();
  await socialDb?.drop();
  await timelines?.close();
});

/** Every GET route of a service. */
async function readRoutes(service: keyof typeof urlOf): Promise<string[]> {
  const doc = (await request(urlOf[service]()).get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).filter(([, ops]) => 'get' in ops).map(([template]) => template);
}

/** The path of a route about `whose` things; null when a parameter names nothing this test knows. */
function fill(template: string, whose: Things): string | null {
  let path = template;
  const kind = /^\/api\/(users|posts|timelines|videos|follow-requests)\//u.exec(template)?.[1];
  const id = { users: whose.person.userId, posts: whose.postId, timelines: whose.timelineId, videos: whose.videoId, 'follow-requests': whose.person.userId }[kind ?? ''];
  if (id) path = path.replace('{id}', id).replace('{userId}', whose.person.userId);
  path = path.replace('{commentId}', whose.commentIds[1] ?? '').replace('{timelineId}', whose.timelineId);
  return /\{/u.test(path) ? null : path;
}

/** What would give away what the moderators took out. */
const traces = () => [
  hidden.postId, hidden.timelineId, hidden.videoId, ...hidden.commentIds,
  suspended.person.userId, suspended.person.username, suspended.person.displayName, suspended.postId, suspended.timelineId, suspended.videoId, ...suspended.commentIds,
];

describe('what the moderators took out reaches nobody else', () => {
  it('reads the routes from both OpenAPI documents', async () => {
    expect((await readRoutes('social')).length).toBeGreaterThanOrEqual(20);
    expect((await readRoutes('timelines')).length).toBeGreaterThanOrEqual(5);
  });

  it.each(['stranger', 'third'] as const)('the %s asks every read route', async (who) => {
    const viewer = who === 'stranger' ? stranger : third.person;
    const leaks: string[] = [];
    for (const service of ['social', 'timelines'] as const) {
      for (const template of await readRoutes(service)) {
        for (const [about, whose] of [['the hidden', hidden], ['the suspended', suspended], ['the third', third]] as const) {
          const path = template.includes('{') ? fill(template, whose) : about === 'the hidden' ? template : null;
          if (path === null) continue;
          const res = await call(service, 'get', path, viewer);
          if (res.status >= 500) leaks.push(`${service} ${template} about ${about}: ${res.status}`);
          // A hidden item's own routes, and every route of a suspended person's items: as if absent.
          const item = /^\/api\/(posts|timelines|videos)\/\{id\}/u.test(template);
          if (item && about !== 'the third' && res.status !== 404) leaks.push(`${service} ${template} about ${about}: ${res.status}, not 404`);
          const text = JSON.stringify(res.body ?? '');
          for (const trace of traces()) if (text.includes(trace)) leaks.push(`${service} ${template} about ${about} shows ${trace}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  }, 90_000);

  it('takes no like or comment on a hidden post or timeline, nor on a suspended person\'s', async () => {
    for (const side of [hidden, suspended]) {
      await call('social', 'post', `/api/posts/${side.postId}/like`, stranger).expect(404);
      await call('social', 'post', `/api/posts/${side.postId}/comments`, stranger).send({ content: 'still here?' }).expect(404);
      await call('social', 'post', `/api/timelines/${side.timelineId}/like`, stranger).expect(404);
      await call('social', 'post', `/api/timelines/${side.timelineId}/comments`, stranger).send({ content: 'still here?' }).expect(404);
      await call('social', 'post', `/api/videos/${side.videoId}/comments`, stranger).send({ content: 'still here?' }).expect(404);
    }
  });

  it('still shows the owner of a hidden timeline their own, marked', async () => {
    const own = (await timelines.call('get', `/api/timelines/${hidden.timelineId}`, hidden.person).expect(200)).body as { removedByModerators: boolean };
    expect(own.removedByModerators).toBe(true);
  });

  it('shows the moderator a hidden timeline and a suspended person\'s on their pages, marked, with their comments, and takes nothing from them there', async () => {
    // The timelines service asks the social service (SocialRpc.StaffRole) who is staff.
    for (const side of [hidden, suspended]) {
      const seen = (await call('timelines', 'get', `/api/timelines/${side.timelineId}`, moderator).expect(200)).body as { id: string; removedByModerators: boolean };
      expect(seen).toMatchObject({ id: side.timelineId, removedByModerators: true });
      await call('timelines', 'get', `/api/timelines/${side.timelineId}`, stranger).expect(404);
      await call('social', 'post', `/api/timelines/${side.timelineId}/like`, moderator).expect(404);
      await call('social', 'post', `/api/timelines/${side.timelineId}/comments`, moderator).send({ content: 'seen from the desk' }).expect(404);
      await call('social', 'post', `/api/videos/${side.videoId}/like`, moderator).expect(404);
      // Its comments and its video's, read in context: the social service asks the timelines service with in_context.
      for (const path of [`/api/timelines/${side.timelineId}/comments`, `/api/videos/${side.videoId}/comments`]) {
        await call('social', 'get', path, moderator).expect(200);
        await call('social', 'get', path, stranger).expect(404);
        await call('social', 'get', path, third.person).expect(404);
      }
      await call('social', 'post', `/api/videos/${side.videoId}/comments`, moderator).send({ content: 'seen from the desk' }).expect(404);
    }
    // Its owner's own words on the hidden timeline reach the moderator there, and nobody else.
    const own = ((await call('social', 'post', `/api/timelines/${hidden.timelineId}/comments`, hidden.person).send({ content: 'my side of it' }).expect(201)).body as { id: string }).id;
    const read = (await call('social', 'get', `/api/timelines/${hidden.timelineId}/comments`, moderator).expect(200)).body as Array<{ id: string }>;
    expect(read.map((c) => c.id)).toContain(own);
    await call('social', 'get', `/api/timelines/${hidden.timelineId}/comments`, stranger).expect(404);
    // Taking the role back takes it at once.
    await socialQuery('DELETE FROM staff_roles WHERE user_id = $1', [moderator.userId]);
    await call('timelines', 'get', `/api/timelines/${hidden.timelineId}`, moderator).expect(404);
    await call('social', 'get', `/api/timelines/${hidden.timelineId}/comments`, moderator).expect(404);
    await socialQuery(`INSERT INTO staff_roles (user_id, role) VALUES ($1, 'moderator')`, [moderator.userId]);
  });
});
