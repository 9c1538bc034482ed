import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { hashInvitationToken, newInvitationToken } from '../src/invitations/invitation-token.js';
import { as, type As, type Method, type Person, startHarness, type TimelinesHarness } from './harness.js';

/**
 * Authorization matrix: every route of the timelines service × who is calling × what state the
 * timeline is in, with the expected status. The route list is read from the service's own
 * OpenAPI document, so a new route without a row here fails the suite.
 */
const STATES = {
  private: { visibility: 'private', status: 'published' },
  unlisted: { visibility: 'unlisted', status: 'published' },
  public: { visibility: 'public', status: 'published' },
  draft: { visibility: 'public', status: 'draft' },
} as const;
type State = keyof typeof STATES;
const CALLERS = ['anonymous', 'stranger', 'viewer', 'editor', 'owner'] as const;
type Who = (typeof CALLERS)[number];

interface Fixture {
  timelineId: string;
  /** An open invitation to an address without an account. */
  invitationId: string;
  token: string;
  /** An open invitation to the stranger's address. */
  strangerToken: string;
}

/** Expected status per state, for [anonymous, stranger, viewer, editor, owner]. */
type Grid = Record<State, readonly [number, number, number, number, number]>;
const same = (row: readonly [number, number, number, number, number]): Grid => ({ private: row, unlisted: row, public: row, draft: row });
/** A route anyone who may see the timeline may use; others are told it does not exist. */
const viewers = (ok: number): Grid => ({
  private: [404, 404, ok, ok, ok],
  unlisted: [ok, ok, ok, ok, ok],
  public: [ok, ok, ok, ok, ok],
  draft: [404, 404, ok, ok, ok],
});
/** Signed in, anyone who may see the timeline; others are told it does not exist. */
const signedInViewers = (ok: number): Grid => ({
  private: [401, 404, ok, ok, ok],
  unlisted: [401, ok, ok, ok, ok],
  public: [401, ok, ok, ok, ok],
  draft: [401, 404, ok, ok, ok],
});
/** Signed in; the roles in `allowed` get `ok`, other callers who may see it 403, the rest 404. */
const roles = (ok: number, allowed: Who[]): Grid => {
  const row = (visibleToStranger: boolean) =>
    CALLERS.map((who) => (who === 'anonymous' ? 401 : allowed.includes(who) ? ok : who === 'stranger' && !visibleToStranger ? 404 : 403)) as unknown as readonly [number, number, number, number, number];
  return { private: row(false), unlisted: row(true), public: row(true), draft: row(false) };
};

/** The same grid with the owner's answer replaced. */
const ownerRefused = (grid: Grid, status: number): Grid =>
  Object.fromEntries(Object.entries(grid).map(([state, row]) => [state, [row[0], row[1], row[2], row[3], status]])) as unknown as Grid;

interface Row {
  method: Method;
  route: string;
  path: (f: Fixture, p: People) => string;
  body?: (f: Fixture, p: People) => Record<string, unknown>;
  expect: Grid;
  /** The call changes what later calls would see: each case gets its own timeline. */
  fresh?: boolean;
}

type People = Record<Exclude<Who, 'anonymous'>, Person>;
let mailbox = 0;

const matrix: Row[] = [
  { method: 'get', route: '/api/timelines', path: () => '/api/timelines', expect: same([200, 200, 200, 200, 200]) },
  { method: 'get', route: '/api/my-timelines', path: () => '/api/my-timelines', expect: same([401, 200, 200, 200, 200]) },
  { method: 'post', route: '/api/timelines', path: () => '/api/timelines', body: () => ({ title: 'New' }), expect: same([401, 201, 201, 201, 201]) },
  { method: 'get', route: '/api/timelines/{id}', path: (f) => `/api/timelines/${f.timelineId}`, expect: viewers(200) },
  { method: 'patch', route: '/api/timelines/{id}', path: (f) => `/api/timelines/${f.timelineId}`, body: () => ({ title: 'Renamed' }), expect: roles(200, ['owner']) },
  { method: 'delete', route: '/api/timelines/{id}', path: (f) => `/api/timelines/${f.timelineId}`, expect: roles(204, ['owner']), fresh: true },
  { method: 'get', route: '/api/timelines/{id}/collaborators', path: (f) => `/api/timelines/${f.timelineId}/collaborators`, expect: roles(200, ['viewer', 'editor', 'owner']) },
  {
    method: 'delete', route: '/api/timelines/{id}/collaborators/{userId}', path: (f, p) => `/api/timelines/${f.timelineId}/collaborators/${p.viewer.userId}`,
    expect: roles(204, ['owner']), fresh: true,
  },
  {
    method: 'post', route: '/api/timelines/{id}/transfer-ownership', path: (f) => `/api/timelines/${f.timelineId}/transfer-ownership`,
    body: (_f, p) => ({ newOwnerId: p.editor.userId }), expect: roles(200, ['owner']), fresh: true,
  },
  // Any collaborator but the owner may leave; the owner is told to hand the timeline on first.
  {
    method: 'post', route: '/api/timelines/{id}/leave', path: (f) => `/api/timelines/${f.timelineId}/leave`,
    expect: ownerRefused(roles(204, ['viewer', 'editor']), 400), fresh: true,
  },
  {
    method: 'post', route: '/api/timelines/{id}/invite', path: (f) => `/api/timelines/${f.timelineId}/invite`,
    body: () => ({ email: `matrix-${(mailbox += 1)}@example.com` }), expect: roles(201, ['owner']),
  },
  { method: 'get', route: '/api/timelines/{id}/invitations', path: (f) => `/api/timelines/${f.timelineId}/invitations`, expect: roles(200, ['owner']) },
  { method: 'delete', route: '/api/invitations/{id}', path: (f) => `/api/invitations/${f.invitationId}`, expect: roles(204, ['owner']), fresh: true },
  { method: 'post', route: '/api/invitations/{id}/resend', path: (f) => `/api/invitations/${f.invitationId}/resend`, expect: roles(200, ['owner']) },
  // Holding the link is what counts: the timeline's state does not.
  { method: 'get', route: '/api/invitations/{token}', path: (f) => `/api/invitations/${f.token}`, expect: same([200, 200, 200, 200, 200]) },
  { method: 'post', route: '/api/invitations/{token}/accept', path: (f) => `/api/invitations/${f.strangerToken}/accept`, expect: same([401, 200, 403, 403, 403]), fresh: true },
  { method: 'post', route: '/api/invitations/{token}/decline', path: (f) => `/api/invitations/${f.token}/decline`, expect: same([204, 204, 204, 204, 204]), fresh: true },
  { method: 'post', route: '/api/timelines/{id}/views', path: (f) => `/api/timelines/${f.timelineId}/views`, body: () => ({ watchTime: 12, completion: 0.4 }), expect: viewers(204) },
  { method: 'post', route: '/api/timelines/{id}/shares', path: (f) => `/api/timelines/${f.timelineId}/shares`, body: () => ({ channel: 'link' }), expect: viewers(204) },
  { method: 'post', route: '/api/timelines/{id}/downloads', path: (f) => `/api/timelines/${f.timelineId}/downloads`, expect: viewers(204) },
  { method: 'get', route: '/api/timelines/{id}/analytics', path: (f) => `/api/timelines/${f.timelineId}/analytics`, expect: roles(200, ['editor', 'owner']) },
  // One's own place in a timeline one may see: there is nobody else's to ask for.
  { method: 'get', route: '/api/timelines/{id}/watch-position', path: (f) => `/api/timelines/${f.timelineId}/watch-position`, expect: signedInViewers(200) },
  {
    method: 'put', route: '/api/timelines/{id}/watch-position', path: (f) => `/api/timelines/${f.timelineId}/watch-position`,
    body: () => ({ itemId: randomUUID(), seconds: 134 }), expect: signedInViewers(200),
  },
  { method: 'delete', route: '/api/timelines/{id}/watch-position', path: (f) => `/api/timelines/${f.timelineId}/watch-position`, expect: signedInViewers(204) },
];

const long = (n: number) => 'a'.repeat(n);

/** Bad bodies for every write that takes one: each answers 4xx with its message and changes nothing. */
const badInput: Array<{ route: string; method: Method; path: (f: Fixture) => string; cases: Array<{ body: unknown; message: string | RegExp; status?: number }> }> = [
  {
    method: 'post', route: '/api/timelines', path: () => '/api/timelines',
    cases: [
      { body: {}, message: 'Timeline title is required' },
      { body: { title: '' }, message: 'Timeline title is required' },
      { body: { title: '   ' }, message: 'Timeline title is required' },
      { body: { title: 42 }, message: 'Timeline title is required' },
      { body: { title: long(201) }, message: 'Timeline title must be at most 200 characters' },
      { body: { title: 'ok', description: long(5001) }, message: 'Description must be at most 5000 characters' },
      { body: { title: 'ok', description: ['x'] }, message: 'Description must be text' },
      { body: { title: 'ok', visibility: 'secret' }, message: 'Visibility must be private, public or unlisted' },
      { body: { title: 'ok', status: 'published' }, message: 'Unknown field: status' },
      { body: { title: 'ok', creatorId: randomUUID() }, message: 'Unknown field: creatorId' },
      { body: { title: 'ok', views: 1000 }, message: 'Unknown field: views' },
      { body: 'not json', message: /JSON/ },
      { body: { title: long(2 * 1024 * 1024) }, message: 'Request body is too large', status: 413 },
    ],
  },
  {
    method: 'patch', route: '/api/timelines/{id}', path: (f) => `/api/timelines/${f.timelineId}`,
    cases: [
      { body: { title: '' }, message: 'Timeline title is required' },
      { body: { title: null }, message: 'Timeline title is required' },
      { body: { title: long(201) }, message: 'Timeline title must be at most 200 characters' },
      { body: { description: long(5001) }, message: 'Description must be at most 5000 characters' },
      { body: { visibility: 'everyone' }, message: 'Visibility must be private, public or unlisted' },
      { body: { visibility: null }, message: 'Visibility must be private, public or unlisted' },
      { body: { status: 'processing' }, message: 'Status must be draft or published' },
      { body: { status: true }, message: 'Status must be draft or published' },
      { body: { likesCount: 5 }, message: 'Unknown field: likesCount' },
      { body: { creatorId: randomUUID() }, message: 'Unknown field: creatorId' },
    ],
  },
  {
    method: 'post', route: '/api/timelines/{id}/transfer-ownership', path: (f) => `/api/timelines/${f.timelineId}/transfer-ownership`,
    cases: [
      { body: {}, message: 'The new owner must be a collaborator' },
      { body: { newOwnerId: 'someone' }, message: 'The new owner must be a collaborator' },
      { body: { newOwnerId: randomUUID() }, message: 'The new owner must be a collaborator' },
      { body: { newOwnerId: randomUUID(), keepRole: true }, message: 'Unknown field: keepRole' },
    ],
  },
  {
    method: 'post', route: '/api/timelines/{id}/invite', path: (f) => `/api/timelines/${f.timelineId}/invite`,
    cases: [
      { body: {}, message: 'Please enter an email address' },
      { body: { email: '' }, message: 'Please enter an email address' },
      { body: { email: '   ' }, message: 'Please enter an email address' },
      { body: { email: 'not-an-address' }, message: 'Please enter a valid email address' },
      { body: { email: 12 }, message: 'Please enter an email address' },
      { body: { email: `${long(250)}@example.com` }, message: 'Please enter a valid email address' },
      { body: { email: 'x@example.com', role: 'owner' }, message: 'Role must be viewer or editor' },
      { body: { email: 'x@example.com', message: long(1001) }, message: 'Message must be at most 1000 characters' },
      { body: { email: 'x@example.com', message: { text: 'hi' } }, message: 'Message must be text' },
      { body: { email: 'x@example.com', expiresAt: '2099-01-01' }, message: 'Unknown field: expiresAt' },
    ],
  },
  {
    method: 'post', route: '/api/timelines/{id}/views', path: (f) => `/api/timelines/${f.timelineId}/views`,
    cases: [
      { body: {}, message: 'Watch time must be a number of seconds from 0 to 86400' },
      { body: { watchTime: '12', completion: 0.5 }, message: 'Watch time must be a number of seconds from 0 to 86400' },
      { body: { watchTime: -1, completion: 0.5 }, message: 'Watch time must be a number of seconds from 0 to 86400' },
      { body: { watchTime: 86401, completion: 0.5 }, message: 'Watch time must be a number of seconds from 0 to 86400' },
      { body: { watchTime: 10, completion: 1.5 }, message: 'Completion must be a number from 0 to 1' },
      { body: { watchTime: 10 }, message: 'Completion must be a number from 0 to 1' },
      { body: { watchTime: 10, completion: 0.5, timeZone: 'Mars/Olympus' }, message: 'Time zone must be an IANA name such as Europe/Paris' },
      { body: { watchTime: 10, completion: 0.5, timeZone: 7 }, message: 'Time zone must be an IANA name such as Europe/Paris' },
      { body: { watchTime: 10, completion: 0.5, region: 'Europe' }, message: 'Unknown field: region' },
    ],
  },
  {
    method: 'put', route: '/api/timelines/{id}/watch-position', path: (f) => `/api/timelines/${f.timelineId}/watch-position`,
    cases: [
      { body: {}, message: 'Item id must be the id of a video or image' },
      { body: { itemId: 'first', seconds: 3 }, message: 'Item id must be the id of a video or image' },
      { body: { itemId: randomUUID() }, message: 'Seconds must be a number from 0 to 86400' },
      { body: { itemId: randomUUID(), seconds: '12' }, message: 'Seconds must be a number from 0 to 86400' },
      { body: { itemId: randomUUID(), seconds: -1 }, message: 'Seconds must be a number from 0 to 86400' },
      { body: { itemId: randomUUID(), seconds: 86401 }, message: 'Seconds must be a number from 0 to 86400' },
      { body: { itemId: randomUUID(), seconds: 3, userId: randomUUID() }, message: 'Unknown field: userId' },
    ],
  },
  {
    method: 'post', route: '/api/timelines/{id}/shares', path: (f) => `/api/timelines/${f.timelineId}/shares`,
    cases: [
      { body: { channel: 'pigeon' }, message: /^Channel must be one of: link, twitter/ },
      { body: { channel: 'link', count: 100 }, message: 'Unknown field: count' },
    ],
  },
];

describe('timelines routes: authorization matrix and bad input', () => {
  let h: TimelinesHarness;
  let people: People;

  const fixture = async (state: State): Promise<Fixture> => {
    const timelineId = randomUUID();
    const { visibility, status } = STATES[state];
    await h.query(
      `INSERT INTO timelines (id, title, creator_id, creator_name, visibility, is_public, status) VALUES ($1, $2, $3, 'Owner', $4, $5, $6)`,
      [timelineId, `Matrix ${state}`, people.owner.userId, visibility, visibility === 'public', status],
    );
    await h.query(
      `INSERT INTO collaborators (id, timeline_id, user_id, user_name, role) VALUES
         (gen_random_uuid(), $1, $2, 'Owner', 'owner'), (gen_random_uuid(), $1, $3, 'Editor', 'editor'), (gen_random_uuid(), $1, $4, 'Viewer', 'viewer')`,
      [timelineId, people.owner.userId, people.editor.userId, people.viewer.userId],
    );
    const invitationId = randomUUID();
    const token = newInvitationToken();
    const strangerToken = newInvitationToken();
    await h.query(
      `INSERT INTO invitations (id, timeline_id, inviter_user_id, inviter_name, email, invite_token_hash, expires_at) VALUES
         ($1, $2, $3, 'Owner', $4, $5, now() + interval '7 days'), (gen_random_uuid(), $2, $3, 'Owner', $6, $7, now() + interval '7 days')`,
      [invitationId, timelineId, people.owner.userId, `no-account-${invitationId}@example.com`, hashInvitationToken(token), people.stranger.email, hashInvitationToken(strangerToken)],
    );
    return { timelineId, invitationId, token, strangerToken };
  };

  const caller = (who: Who): As => (who === 'anonymous' ? { ip: '198.51.100.90' } : as(people[who]));

  beforeAll(async () => {
    h = await startHarness('tlmatrix');
    people = {
      stranger: await h.register({ displayName: 'Stranger' }),
      viewer: await h.register({ displayName: 'Viewer' }),
      editor: await h.register({ displayName: 'Editor' }),
      owner: await h.register({ displayName: 'Owner' }),
    };
  });
  afterAll(async () => {
    await h.close();
  });

  it('covers every route the service serves', async () => {
    const doc = (await h.call('get', '/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
    expect(matrix.map((r) => `${r.method.toUpperCase()} ${r.route}`).sort()).toEqual(served);
    const writes = served.filter((r) => /^(POST|PATCH|PUT) /.test(r));
    const withBodies = new Set(matrix.filter((r) => r.body).map((r) => `${r.method.toUpperCase()} ${r.route}`));
    expect(badInput.map((b) => `${b.method.toUpperCase()} ${b.route}`).sort()).toEqual(writes.filter((w) => withBodies.has(w)).sort());
  });

  describe.each(matrix)('$method $route', (row) => {
    const cases = (Object.keys(STATES) as State[]).flatMap((state) => CALLERS.map((who, i) => ({ state, who, status: row.expect[state][i]! })));
    let shared: Partial<Record<State, Fixture>> = {};
    beforeAll(() => {
      shared = {};
    });

    it.each(cases)('$who on $state → $status', async ({ state, who, status }) => {
      const f = row.fresh ? await fixture(state) : (shared[state] ??= await fixture(state));
      const res = await h.call(row.method, row.path(f, people), caller(who)).send(row.body?.(f, people));
      expect({ status: res.status, body: res.status >= 400 ? res.body : undefined }).toEqual({
        status,
        body: status >= 400 ? expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }) : undefined,
      });
      if (status === 404 && row.route.startsWith('/api/timelines/{id}')) expect(res.body.message).toBe('Timeline not found');
    });
  });

  it('lists a timeline for exactly those who may find it', async () => {
    const listed: Record<State, Record<Who, boolean>> = {
      private: { anonymous: false, stranger: false, viewer: true, editor: true, owner: true },
      unlisted: { anonymous: false, stranger: false, viewer: true, editor: true, owner: true },
      public: { anonymous: true, stranger: true, viewer: true, editor: true, owner: true },
      draft: { anonymous: false, stranger: false, viewer: true, editor: true, owner: true },
    };
    for (const state of Object.keys(STATES) as State[]) {
      const f = await fixture(state);
      for (const who of CALLERS) {
        const ids: string[] = [];
        let cursor: string | undefined;
        do {
          const res = await h.call('get', `/api/timelines?limit=100${cursor ? `&cursor=${cursor}` : ''}`, caller(who)).expect(200);
          ids.push(...(res.body as Array<{ id: string }>).map((t) => t.id));
          cursor = res.headers['x-next-cursor'];
        } while (cursor);
        expect({ state, who, listed: ids.includes(f.timelineId) }).toEqual({ state, who, listed: listed[state][who] });
        if (who !== 'anonymous') {
          const mine = (await h.call('get', '/api/my-timelines?limit=100', caller(who)).expect(200)).body as Array<{ id: string }>;
          expect({ state, who, mine: mine.some((t) => t.id === f.timelineId) }).toEqual({ state, who, mine: who !== 'stranger' });
        }
      }
    }
  });

  describe('bad input', () => {
    let f: Fixture;
    const snapshot = async () =>
      JSON.stringify(
        await h.query(`SELECT
          (SELECT count(*) FROM timelines) AS timelines, (SELECT count(*) FROM collaborators) AS collaborators,
          (SELECT count(*) FROM invitations) AS invitations, (SELECT count(*) FROM outbox) AS events,
          (SELECT count(*) FROM timeline_views) AS views, (SELECT count(*) FROM timeline_engagements) AS engagements,
          (SELECT count(*) FROM watch_positions) AS positions,
          (SELECT md5(string_agg(t::text, '' ORDER BY id)) FROM timelines t) AS content`),
      );
    beforeAll(async () => {
      f = await fixture('public');
    });

    describe.each(badInput)('$method $route', ({ method, path, cases }) => {
      it.each(cases)('$message', async ({ body, message, status }) => {
        const before = await snapshot();
        const req = h.call(method, path(f), as(people.owner));
        const res = typeof body === 'string' ? await req.set('content-type', 'application/json').send(body) : await req.send(body as object);
        expect(res.status).toBe(status ?? 400);
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status ?? 400, message: typeof message === 'string' ? message : expect.stringMatching(message) }));
        expect(await snapshot()).toBe(before);
      });
    });

    it('tells invitation ids and tokens apart by their form', async () => {
      expect((await h.call('get', `/api/invitations/${f.invitationId}`).expect(404)).body.message).toBe('This invitation link is invalid or has already been used.');
      expect((await h.call('delete', `/api/invitations/${f.token}`, as(people.owner)).expect(404)).body.message).toBe('Invitation not found');
      expect((await h.call('post', `/api/invitations/${f.token}/resend`, as(people.owner)).expect(404)).body.message).toBe('Invitation not found');
      expect((await h.call('post', `/api/invitations/${f.invitationId}/decline`).expect(404)).body.message).toBe('This invitation link is invalid or has already been used.');
      await h.call('get', `/api/invitations/${f.token}`).expect(200);
    });
  });
});
