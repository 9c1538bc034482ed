import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { type As, type AuthHarness, newUser, startHarness } from './harness.js';

/**
 * Authorization and bad-input matrix for every route of the auth service. The route list is read
 * from the service's own OpenAPI document, so a new route without a row here fails the suite.
 */
type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
interface Row {
  method: Method;
  /** OpenAPI path template. */
  route: string;
  /** Concrete path for a valid call (may use the signed-in user's id). */
  path: (ctx: { userId: string }) => string;
  body?: () => Record<string, unknown>;
  anonymous: number;
  signedIn: number;
  /** Bad bodies: each must answer 400 with the message, and change nothing. */
  badInput?: Array<{ body: unknown; message: string | RegExp; status?: number }>;
}

const long = (n: number) => 'a'.repeat(n);
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const matrix: Row[] = [
  {
    method: 'post', route: '/api/auth/register', path: () => '/api/auth/register', body: () => newUser(), anonymous: 201, signedIn: 201,
    badInput: [
      { body: {}, message: 'Username must be at least 3 characters' },
      { body: { ...newUser(), username: 'ab' }, message: 'Username must be at least 3 characters' },
      { body: { ...newUser(), username: 'has space' }, message: 'Username can only contain letters, numbers, dots and underscores' },
      { body: { ...newUser(), username: long(31) }, message: 'Username must be at most 30 characters' },
      { body: { ...newUser(), username: 12345 }, message: 'Username must be at least 3 characters' },
      { body: { ...newUser(), email: 'not-an-email' }, message: 'Please enter a valid email address' },
      { body: { ...newUser(), email: undefined }, message: 'Please enter a valid email address' },
      { body: { ...newUser(), password: '12345' }, message: 'Password must be at least 6 characters' },
      { body: { ...newUser(), password: long(257) }, message: 'Password must be at most 256 characters' },
      { body: { ...newUser(), displayName: 'A' }, message: 'Full name must be at least 2 characters' },
      { body: { ...newUser(), displayName: ['x', 'y'] }, message: 'Full name must be at least 2 characters' },
      { body: { ...newUser(), isVerified: true }, message: 'Unknown field: isVerified' },
      { body: { ...newUser(), id: MISSING_ID }, message: 'Unknown field: id' },
      { body: 'not json', message: /JSON|body/i },
      { body: { ...newUser(), displayName: long(2 * 1024 * 1024) }, message: 'Request body is too large', status: 413 },
    ],
  },
  {
    method: 'post', route: '/api/auth/login', path: () => '/api/auth/login', body: () => ({ login: 'nobody', password: 'whatever1' }), anonymous: 401, signedIn: 401,
    badInput: [
      { body: {}, message: 'Please enter your email or username' },
      { body: { login: '', password: 'secret1' }, message: 'Please enter your email or username' },
      { body: { login: '   ', password: 'secret1' }, message: 'Please enter your email or username' },
      { body: { login: 'ada', password: '123' }, message: 'Password must be at least 6 characters' },
      { body: { login: 'ada', password: 123456 }, message: 'Password must be at least 6 characters' },
      { body: { login: 'ada', password: 'secret1', remember: true }, message: 'Unknown field: remember' },
    ],
  },
  { method: 'post', route: '/api/auth/logout', path: () => '/api/auth/logout', anonymous: 401, signedIn: 204 },
  { method: 'get', route: '/api/auth/me', path: () => '/api/auth/me', anonymous: 401, signedIn: 200 },
  {
    method: 'put', route: '/api/auth/profile', path: () => '/api/auth/profile', body: () => ({ bio: 'hello' }), anonymous: 401, signedIn: 200,
    badInput: [
      { body: { displayName: 'A' }, message: 'Full name must be at least 2 characters' },
      { body: { displayName: 42 }, message: 'Full name must be at least 2 characters' },
      { body: { bio: long(501) }, message: 'Bio must be at most 500 characters' },
      { body: { avatar: 'javascript:alert(1)' }, message: 'Avatar must be an image uploaded to this site' },
      { body: { avatar: '//evil.example/a.png' }, message: 'Avatar must be an image uploaded to this site' },
      { body: { avatar: '/\\evil.example/a.png' }, message: 'Avatar must be an image uploaded to this site' },
      { body: { avatar: 'https://evil.example/a.png' }, message: 'Avatar must be an image uploaded to this site' },
      { body: { avatar: '/api/media/not-an-id/file' }, message: 'Avatar must be an image uploaded to this site' },
      // Someone else's profile picture is theirs, not a path to borrow.
      { body: { avatar: '/api/users/3f2b1c4d-1111-4222-8333-444455556666/avatar?v=1' }, message: 'Avatar must be an image uploaded to this site' },
      { body: { location: long(101) }, message: 'Location must be at most 100 characters' },
      { body: { location: 7 }, message: 'Location must be text' },
      ...['javascript:alert(1)', 'ftp://example.com', 'example.com', 'https://', 'https://user:pw@example.com', 'http://exa mple.com', 'data:text/html,hi', 42].map((website) => ({
        body: { website }, message: 'Website must be a link starting with http:// or https://',
      })),
      { body: { website: `https://example.com/${long(2048)}` }, message: 'Website must be at most 2048 characters' },
      { body: { isPrivate: 'yes' }, message: 'Private account must be true or false' },
      { body: { email: 'new@example.com' }, message: 'Unknown field: email' },
      { body: { isVerified: true }, message: 'Unknown field: isVerified' },
      { body: { followersCount: 1000 }, message: 'Unknown field: followersCount' },
    ],
  },
  { method: 'get', route: '/api/users/{id}/profile', path: ({ userId }) => `/api/users/${userId}/profile`, anonymous: 401, signedIn: 200 },
];

describe('auth routes: authorization and bad input', () => {
  let h: AuthHarness;
  let as: As & { userId: string };

  const signIn = async (): Promise<As & { userId: string }> => {
    const res = await h.call('post', '/api/auth/register', { ip: '198.51.100.77' }).send(newUser()).expect(201);
    const hash = createHash('sha256').update(res.body.session.token as string).digest('hex');
    const [s] = await h.query<{ id: string; user_id: string }>('SELECT id, user_id FROM sessions WHERE token_hash = $1', [hash]);
    return { userId: s!.user_id, sessionId: s!.id, ip: '198.51.100.78' };
  };
  const snapshot = async () => JSON.stringify(await h.query(`SELECT
      (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM sessions) AS sessions,
      (SELECT count(*) FROM outbox) AS events, (SELECT md5(string_agg(u::text, '' ORDER BY id)) FROM users u) AS content`));

  beforeAll(async () => {
    h = await startHarness('authmatrix');
    as = await signIn();
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
    it(`anonymous → ${row.anonymous}`, async () => {
      const res = await h.call(row.method, row.path({ userId: as.userId }), { ip: '198.51.100.90' }).send(row.body?.());
      expect(res.status).toBe(row.anonymous);
      if (res.status >= 400) expect(res.body).toEqual(expect.objectContaining({ statusCode: res.status, error: expect.any(String), message: expect.any(String) }));
    });

    it(`signed in → ${row.signedIn}`, async () => {
      const caller = row.route === '/api/auth/logout' ? await signIn() : as;
      const res = await h.call(row.method, row.path({ userId: as.userId }), caller).send(row.body?.());
      expect(res.status).toBe(row.signedIn);
    });

    if (row.badInput) {
      it.each(row.badInput)('bad input $message → 4xx, nothing changed', async ({ body, message, status }) => {
        const before = await snapshot();
        const req = h.call(row.method, row.path({ userId: as.userId }), as);
        const res = typeof body === 'string' ? await req.set('content-type', 'application/json').send(body) : await req.send(body as object);
        expect(res.status).toBe(status ?? 400);
        expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
        expect(await snapshot()).toBe(before);
      });
    }
  });

  it('profile: malformed id → 400, unknown id → 404', async () => {
    expect((await h.call('get', '/api/users/not-a-uuid/profile', as).expect(400)).body.message).toBe('Invalid profile id');
    expect((await h.call('get', `/api/users/${MISSING_ID}/profile`, as).expect(404)).body.message).toBe('User not found');
  });
});
