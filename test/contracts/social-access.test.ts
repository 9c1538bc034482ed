import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createLogger, type RunningService, signIdentity } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { MediaEvents, MediaType } from '@timeliner/proto';
import { startSocialService } from '../../services/social/src/index.js';
import { type Person, startHarness, type TimelinesHarness } from '../../services/timelines/test/harness.js';

/**
 * What the social service keeps about a timeline (comments, likes, bookmarks, and its videos'
 * likes and comments) is exactly as visible as the timeline, decided by the real timelines
 * service: every such route of the social service (read from its OpenAPI document) × anonymous /
 * stranger / viewer / editor / owner × private / unlisted / public × draft / published.
 */
type Who = 'anonymous' | 'stranger' | 'viewer' | 'editor' | 'owner';
type State = `${'private' | 'unlisted' | 'public'} ${'draft' | 'published'}`;
const STATES: State[] = ['private draft', 'private published', 'unlisted draft', 'unlisted published', 'public draft', 'public published'];
const WHO: Who[] = ['anonymous', 'stranger', 'viewer', 'editor', 'owner'];

/** The product's rule (spec 001 section 6): members always; anyone else once it is published and not private. */
const visible = (who: Who, state: State) => ['viewer', 'editor', 'owner'].includes(who) || state === 'unlisted published' || state === 'public published';

let timelines: TimelinesHarness;
let social: RunningService;
let socialDb: TestDatabase;
let people: Record<Exclude<Who, 'anonymous'>, Person>;
const fixtures = new Map<State, { timelineId: string; videoId: string }>();

function callSocial(method: 'get' | 'post' | 'put' | 'delete', path: string, who: Who) {
  const requestId = `access-${randomBytes(6).toString('hex')}`;
  const person = who === 'anonymous' ? undefined : people[who];
  const headers = signIdentity(timelines.secret, { userId: person?.userId, sessionId: person?.sessionId, clientIp: '198.51.100.7' }, { requestId, method: method.toUpperCase(), url: path });
  return request(social.url)[method](path).set(headers).set('x-request-id', requestId);
}

beforeAll(async () => {
  timelines = await startHarness('socialaccess');
  socialDb = await createTestDatabase('socialaccesssocial');
  social = await startSocialService({ databaseUrl: socialDb.url, bus: timelines.bus, logger: createLogger('social-access', process.env.TEST_LOG_LEVEL ?? 'silent'), identitySecret: timelines.secret, port: 0, host: '127.0.0.1' });
  people = {
    owner: await timelines.register({ displayName: 'Olga Owner' }),
    editor: await timelines.register({ displayName: 'Ed Editor' }),
    viewer: await timelines.register({ displayName: 'Vi Viewer' }),
    stranger: await timelines.register({ displayName: 'Sam Stranger' }),
  };
  for (const state of STATES) {
    const [visibility, status] = state.split(' ') as [string, string];
    const timelineId = randomUUID();
    await timelines.query(
      `INSERT INTO timelines (id, title, creator_id, creator_name, visibility, is_public, status) VALUES ($1, $2, $3, 'Olga Owner', $4, $5, $6)`,
      [timelineId, `Access ${state}`, people.owner.userId, visibility, visibility === 'public', status],
    );
    await timelines.query(
      `INSERT INTO collaborators (id, timeline_id, user_id, user_name, role) VALUES
         (gen_random_uuid(), $1, $2, 'Olga Owner', 'owner'), (gen_random_uuid(), $1, $3, 'Ed Editor', 'editor'), (gen_random_uuid(), $1, $4, 'Vi Viewer', 'viewer')`,
      [timelineId, people.owner.userId, people.editor.userId, people.viewer.userId],
    );
    const videoId = randomUUID();
    await timelines.publish(MediaEvents.UploadCompleted, { mediaId: videoId, timelineId, uploaderId: people.owner.userId, mediaType: MediaType.VIDEO, originalName: 'clip.mp4', mimeType: 'video/mp4', size: 1024n });
    fixtures.set(state, { timelineId, videoId });
  }
  // The social service knows the videos once it has read their events.
  const socialQuery = async (sql: string) => (await social.app.get((await import('typeorm')).DataSource).query(sql)) as unknown[];
  await timelines.waitFor(async () => (await socialQuery('SELECT id FROM videos')).length === STATES.length, 10_000);
}, 60_000);

afterAll(async () => {
  await social?.close();
  await socialDb?.drop();
  await timelines?.close();
});

/** Every social route about one timeline or one of its videos, with the answer it gives when allowed. */
async function routes(): Promise<Array<{ method: 'get' | 'post' | 'delete'; template: string; ok: number }>> {
  const doc = (await request(social.url).get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([template]) => /^\/api\/(timelines|videos)\/\{id\}\/(comments|like|liked|bookmark|bookmarked)$/.test(template))
    .flatMap(([template, ops]) =>
      Object.keys(ops)
        .filter((m): m is 'get' | 'post' | 'delete' => ['get', 'post', 'delete'].includes(m))
        .map((method) => ({ method, template, ok: method === 'post' && template.endsWith('/comments') ? 201 : 200 })),
    );
}

describe('social routes follow the timelines service on every caller and timeline state', () => {
  it('covers the timeline and video routes', async () => {
    expect((await routes()).length).toBeGreaterThanOrEqual(13);
  });

  it.each(STATES)('%s', async (state) => {
    const { timelineId, videoId } = fixtures.get(state)!;
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const route of await routes()) {
      const path = route.template.replace('{id}', route.template.startsWith('/api/videos') ? videoId : timelineId);
      for (const who of WHO) {
        const res = await callSocial(route.method, path, who).send(route.method === 'post' && route.template.endsWith('/comments') ? { content: `from ${who}` } : undefined);
        outcomes.push(`${route.method} ${route.template} ${who} → ${res.status}`);
        const write = route.method !== 'get';
        const status = write && who === 'anonymous' ? 401 : visible(who, state) ? route.ok : 404;
        expected.push(`${route.method} ${route.template} ${who} → ${status}`);
      }
    }
    expect(outcomes).toEqual(expected);
  }, 60_000);
});

/**
 * Comment controls of a timeline and its videos: every such route of the OpenAPI document × every
 * caller × every timeline state. Who sees the timeline reads its comment settings; only its owner
 * and editors change them, read the approval queue, approve, pin and delete others' comments;
 * anyone else who sees it gets 403, whoever does not see it 404, and signed-out writes 401.
 */
describe('comment controls follow the timelines service on every caller and timeline state', () => {
  type Method = 'get' | 'put' | 'post' | 'delete';
  const socialQuery = async (sql: string, params: unknown[]) => social.app.get((await import('typeorm')).DataSource).query(sql, params) as Promise<unknown[]>;

  async function controlRoutes(): Promise<Array<{ method: Method; template: string }>> {
    const doc = (await request(social.url).get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(doc.paths)
      .filter(([template]) => /^\/api\/(timelines|videos)\/\{id\}\/(comment-settings|held-comments|comments\/\{commentId\}(\/approve|\/pin)?)$/.test(template))
      .flatMap(([template, ops]) => Object.keys(ops).filter((m): m is Method => ['get', 'put', 'post', 'delete'].includes(m)).map((method) => ({ method, template })))
      // The video comment's own DELETE (its author's) is covered by the route list above.
      .filter(({ method, template }) => !(method === 'delete' && template === '/api/videos/{id}/comments/{commentId}'));
  }

  /** A comment by the owner on the timeline or the video, new for each call (a deletion takes it). */
  async function ownersComment(template: string, timelineId: string, videoId: string): Promise<string> {
    const id = randomUUID();
    if (template.startsWith('/api/videos')) {
      await socialQuery(`INSERT INTO video_comments (id, video_id, timeline_id, user_id, content) VALUES ($1, $2, $3, $4, 'by the owner')`, [id, videoId, timelineId, people.owner.userId]);
    } else {
      await socialQuery(`INSERT INTO timeline_comments (id, timeline_id, user_id, content) VALUES ($1, $2, $3, 'by the owner')`, [id, timelineId, people.owner.userId]);
    }
    return id;
  }

  /** Reads and the settings answer 200; approving, pinning and deleting 204. */
  const allowed = (method: Method, template: string) => (method === 'get' || template.endsWith('comment-settings') ? 200 : 204);

  it('covers the settings, queue, approve, pin and delete routes', async () => {
    expect((await controlRoutes()).map((r) => `${r.method} ${r.template}`).sort()).toEqual([
      'delete /api/timelines/{id}/comments/{commentId}',
      'delete /api/timelines/{id}/comments/{commentId}/pin',
      'delete /api/videos/{id}/comments/{commentId}/pin',
      'get /api/timelines/{id}/comment-settings',
      'get /api/timelines/{id}/held-comments',
      'post /api/timelines/{id}/comments/{commentId}/approve',
      'post /api/videos/{id}/comments/{commentId}/approve',
      'put /api/timelines/{id}/comment-settings',
      'put /api/timelines/{id}/comments/{commentId}/pin',
      'put /api/videos/{id}/comments/{commentId}/pin',
    ]);
  });

  it.each(STATES)('%s', async (state) => {
    const { timelineId, videoId } = fixtures.get(state)!;
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const route of await controlRoutes()) {
      for (const who of WHO) {
        const commentId = route.template.includes('{commentId}') ? await ownersComment(route.template, timelineId, videoId) : '';
        const path = route.template.replace('{id}', route.template.startsWith('/api/videos') ? videoId : timelineId).replace('{commentId}', commentId);
        const res = await callSocial(route.method, path, who).send(route.method === 'put' && route.template.endsWith('comment-settings') ? { whoMayComment: 'everyone' } : undefined);
        outcomes.push(`${route.method} ${route.template} ${who} → ${res.status}`);
        const readsSettings = route.method === 'get' && route.template.endsWith('comment-settings');
        const moderator = who === 'owner' || who === 'editor';
        const status = !readsSettings && who === 'anonymous' ? 401 : !visible(who, state) ? 404 : readsSettings || moderator ? allowed(route.method, route.template) : 403;
        expected.push(`${route.method} ${route.template} ${who} → ${status}`);
      }
    }
    expect(outcomes).toEqual(expected);
  }, 60_000);
});
