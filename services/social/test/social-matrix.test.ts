import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type As, type SocialHarness, startHarness, type World } from './harness.js';

/**
 * Authorization and bad-input matrix for every route of the social service. The route list is
 * read from the service's own OpenAPI document, so a new route without a row here fails the
 * suite. Access to a timeline is the timelines service's answer (a stand-in encoding a fixed
 * policy, see harness.ts); each caller is tried on a timeline it can see and one it cannot.
 */
type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
type Who = 'anonymous' | 'stranger' | 'collaborator';
type Visibility = 'canView' | 'cannotView';

interface Row {
  method: Method;
  /** OpenAPI path template. */
  route: string;
  path: (timelineId: string) => string;
  body?: () => Record<string, unknown>;
  expected: Record<Who, Record<Visibility, number>>;
  /** Bad requests by a caller who may comment: each must answer 4xx with the message, and change nothing. */
  badInput?: Array<{ body?: unknown; path?: (timelineId: string) => string; message: string | RegExp; status?: number }>;
}

const long = (n: number) => 'a'.repeat(n);
const comments = (id: string) => `/api/timelines/${id}/comments`;

const matrix: Row[] = [
  {
    method: 'get', route: '/api/timelines/{id}/comments', path: comments,
    expected: {
      anonymous: { canView: 200, cannotView: 404 },
      stranger: { canView: 200, cannotView: 404 },
      collaborator: { canView: 200, cannotView: 404 },
    },
    badInput: [
      { path: (id) => `${comments(id)}?limit=0`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?limit=101`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?limit=ten`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?limit=2.5`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?cursor=not-a-cursor`, message: 'Invalid cursor' },
      { path: (id) => `${comments(id)}?cursor=${Buffer.from('["x",1]').toString('base64url')}`, message: 'Invalid cursor' },
      { path: (id) => `${comments(id)}?cursor=${long(201)}`, message: 'Invalid cursor' },
      { path: (id) => `${comments(id)}?sort=oldest`, message: 'Unknown field: sort' },
    ],
  },
  {
    method: 'post', route: '/api/timelines/{id}/comments', path: comments, body: () => ({ content: 'Nice one' }),
    expected: {
      anonymous: { canView: 401, cannotView: 401 },
      stranger: { canView: 201, cannotView: 404 },
      collaborator: { canView: 201, cannotView: 404 },
    },
    badInput: [
      { body: {}, message: 'Comment cannot be empty' },
      { body: { content: '' }, message: 'Comment cannot be empty' },
      { body: { content: '   \n\t ' }, message: 'Comment cannot be empty' },
      { body: { content: null }, message: 'Comment cannot be empty' },
      { body: { content: 42 }, message: 'Comment must be text' },
      { body: { content: ['a', 'b'] }, message: 'Comment must be text' },
      { body: { content: { text: 'hi' } }, message: 'Comment must be text' },
      { body: { content: long(2001) }, message: 'Comment must be at most 2000 characters' },
      { body: { content: 'hi', timestamp: -1 }, message: 'Timestamp must be a whole number of seconds' },
      { body: { content: 'hi', timestamp: 1.5 }, message: 'Timestamp must be a whole number of seconds' },
      { body: { content: 'hi', timestamp: '12' }, message: 'Timestamp must be a whole number of seconds' },
      { body: { content: 'hi', timestamp: 86_401 }, message: 'Timestamp must be at most 86400 seconds' },
      { body: { content: 'hi', userId: 42 }, message: 'userId must be a string' },
      { body: { content: 'hi', userName: { first: 'A' } }, message: 'userName must be a string' },
      { body: { content: 'hi', userName: long(201) }, message: 'userName must be at most 200 characters' },
      { body: { content: 'hi', userId: '00000000-0000-4000-8000-000000000000' }, message: 'You can only comment as yourself', status: 403 },
      { body: { content: 'hi', id: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: id' },
      { body: { content: 'hi', createdAt: '2020-01-01T00:00:00Z' }, message: 'Unknown field: createdAt' },
      { body: { content: 'hi', timelineId: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: timelineId' },
      { body: { content: 'hi', likesCount: 1000 }, message: 'Unknown field: likesCount' },
      { body: 'not json', message: /JSON/ },
      { body: { content: long(2 * 1024 * 1024) }, message: 'Request body is too large', status: 413 },
    ],
  },
];

describe('social routes: authorization and bad input', () => {
  let h: SocialHarness;
  let world: World;

  /** Who calls, and which timeline is the one they can / cannot see under the policy. */
  const callers = (): Record<Who, { as: As; timelines: Record<Visibility, string> }> => ({
    anonymous: { as: {}, timelines: { canView: world.publicTimeline, cannotView: world.privateTimeline } },
    stranger: { as: { userId: world.stranger }, timelines: { canView: world.publicTimeline, cannotView: world.privateTimeline } },
    collaborator: { as: { userId: world.collaborator }, timelines: { canView: world.privateTimeline, cannotView: world.missingTimeline } },
  });

  const snapshot = async () => JSON.stringify(await h.query(`SELECT
      (SELECT count(*) FROM timeline_comments) AS comments, (SELECT count(*) FROM outbox) AS events,
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY id), '')) FROM timeline_comments c) AS content`));

  beforeAll(async () => {
    h = await startHarness('socialmatrix');
    world = h.world;
    await h.register(world.stranger, 'stranger', 'Sam Stranger');
    await h.register(world.collaborator, 'collab', 'Cleo Collaborator');
  });
  afterAll(async () => {
    await h.close();
  });

  it('covers every route the service serves', async () => {
    const doc = (await h.call('get', '/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
    const covered = matrix.map((r) => `${r.method.toUpperCase()} ${r.route}`).sort();
    expect(covered).toEqual(served);
  });

  describe.each(matrix)('$method $route', (row) => {
    const cases = (['anonymous', 'stranger', 'collaborator'] as const).flatMap((who) =>
      (['canView', 'cannotView'] as const).map((visibility) => ({ who, visibility, status: row.expected[who][visibility] })),
    );

    it.each(cases)('$who, timeline it $visibility → $status', async ({ who, visibility, status }) => {
      const { as, timelines } = callers()[who];
      const before = await snapshot();
      const res = await h.call(row.method, row.path(timelines[visibility]), as).send(row.body?.());
      expect(res.status).toBe(status);
      if (status >= 400) {
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
        if (status === 404) expect(res.body.message).toBe('Timeline not found');
        if (status === 401) expect(res.body.message).toBe('Authentication required');
        expect(await snapshot()).toBe(before);
      }
    });

    it('malformed timeline id → 404 without asking the timelines service', async () => {
      const asked = h.asked.length;
      const res = await h.call(row.method, row.path('not-a-uuid'), { userId: world.collaborator }).send(row.body?.());
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Timeline not found');
      expect(h.asked.length).toBe(asked);
    });

    if (row.badInput) {
      it.each(row.badInput)('bad input $message → 4xx, nothing changed', async ({ body, path, message, status }) => {
        const before = await snapshot();
        const req = h.call(row.method, (path ?? row.path)(world.privateTimeline), { userId: world.collaborator });
        const res = typeof body === 'string' ? await req.set('content-type', 'application/json').send(body) : await req.send(body as object | undefined);
        expect(res.status).toBe(status ?? 400);
        expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
        expect(await snapshot()).toBe(before);
      });
    }
  });
});
