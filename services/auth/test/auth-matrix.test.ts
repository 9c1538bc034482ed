import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { COMMON_PASSWORD_MESSAGE } from '../src/security/common-passwords.js';
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
      { body: { ...newUser(), password: 'Password1' }, message: COMMON_PASSWORD_MESSAGE },
      { body: { ...newUser(), password: 'qwerty123' }, message: COMMON_PASSWORD_MESSAGE },
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
  {
    method: 'post', route: '/api/auth/password/forgot', path: () => '/api/auth/password/forgot', body: () => ({ email: newUser().email }), anonymous: 202, signedIn: 202,
    badInput: [
      { body: {}, message: 'Please enter a valid email address' },
      { body: { email: 'not-an-email' }, message: 'Please enter a valid email address' },
      { body: { email: ['a@example.com'] }, message: 'Please enter a valid email address' },
      { body: { email: 'a@example.com', username: 'ada' }, message: 'Unknown field: username' },
    ],
  },
  {
    method: 'post', route: '/api/auth/password/reset', path: () => '/api/auth/password/reset', body: () => ({ token: 'A'.repeat(43), password: 'a brand new secret' }), anonymous: 400, signedIn: 400,
    badInput: [
      { body: {}, message: 'This reset link is invalid or has expired. Please ask for a new one.' },
      { body: { token: 'A'.repeat(43), password: '12345' }, message: 'Password must be at least 6 characters' },
      { body: { token: 'A'.repeat(43), password: 'iloveyou' }, message: COMMON_PASSWORD_MESSAGE },
      { body: { token: 'A'.repeat(43), password: long(257) }, message: 'Password must be at most 256 characters' },
      { body: { token: "A'; DROP TABLE users; --", password: 'a brand new secret' }, message: 'This reset link is invalid or has expired. Please ask for a new one.' },
    ],
  },
  {
    method: 'put', route: '/api/auth/password', path: () => '/api/auth/password', body: () => ({ currentPassword: 'correct horse', newPassword: 'a brand new secret' }), anonymous: 401, signedIn: 200,
    badInput: [
      { body: {}, message: 'Please enter your current password' },
      { body: { currentPassword: 'x', newPassword: '12345' }, message: 'Password must be at least 6 characters' },
      { body: { currentPassword: 'x', newPassword: 'abc123' }, message: COMMON_PASSWORD_MESSAGE },
      { body: { currentPassword: 'x', newPassword: 'a brand new secret', userId: MISSING_ID }, message: 'Unknown field: userId' },
    ],
  },
  {
    method: 'put', route: '/api/auth/email', path: () => '/api/auth/email', body: () => ({ newEmail: newUser().email, currentPassword: 'a brand new secret' }), anonymous: 401, signedIn: 202,
    badInput: [
      { body: {}, message: 'Please enter a valid email address' },
      { body: { newEmail: 'not-an-email', currentPassword: 'x' }, message: 'Please enter a valid email address' },
      { body: { newEmail: 'a@example.com' }, message: 'Please enter your current password' },
      { body: { newEmail: 'a@example.com', currentPassword: 'wrong password' }, message: 'Your current password is not right' },
      { body: { newEmail: 'a@example.com', currentPassword: 'x', userId: MISSING_ID }, message: 'Unknown field: userId' },
    ],
  },
  {
    method: 'post', route: '/api/auth/email/confirm', path: () => '/api/auth/email/confirm', body: () => ({ token: 'A'.repeat(43) }), anonymous: 400, signedIn: 400,
    badInput: [
      { body: {}, message: 'This confirmation link is invalid or has expired. Please ask for a new one.' },
      { body: { token: 'short' }, message: 'This confirmation link is invalid or has expired. Please ask for a new one.' },
      { body: { token: 'A'.repeat(43), email: 'a@example.com' }, message: 'Unknown field: email' },
    ],
  },
  { method: 'get', route: '/api/auth/sessions', path: () => '/api/auth/sessions', anonymous: 401, signedIn: 200 },
  { method: 'delete', route: '/api/auth/sessions', path: () => '/api/auth/sessions', anonymous: 401, signedIn: 200 },
  { method: 'delete', route: '/api/auth/sessions/{id}', path: () => `/api/auth/sessions/${MISSING_ID}`, anonymous: 401, signedIn: 404 },
  { method: 'post', route: '/api/auth/logout', path: () => '/api/auth/logout', anonymous: 401, signedIn: 204 },
  { method: 'get', route: '/api/auth/me', path: () => '/api/auth/me', anonymous: 401, signedIn: 200 },
  // two-step sign-in: the second step and a passkey alone are signed-out steps; the settings need a session
  {
    method: 'post', route: '/api/auth/login/second-step', path: () => '/api/auth/login/second-step', body: () => ({ token: 'A'.repeat(43), code: '123456' }), anonymous: 401, signedIn: 401,
    badInput: [
      { body: {}, message: /This sign-in has expired|Please enter the 6-digit code/ },
      { body: { token: 'short', code: '123456' }, message: 'This sign-in has expired. Please sign in again.' },
      { body: { token: 'A'.repeat(43), code: '1' }, message: 'Please enter the 6-digit code from your app, or a recovery code' },
      { body: { token: 'A'.repeat(43), code: '123456', remember: true }, message: 'Unknown field: remember' },
    ],
  },
  { method: 'post', route: '/api/auth/passkeys/sign-in-options', path: () => '/api/auth/passkeys/sign-in-options', anonymous: 200, signedIn: 200 },
  {
    method: 'post', route: '/api/auth/passkeys/sign-in', path: () => '/api/auth/passkeys/sign-in', body: () => ({ challengeId: MISSING_ID, response: {} }), anonymous: 400, signedIn: 400,
    badInput: [
      { body: { challengeId: 'not-an-id', response: {} }, message: 'This passkey request has expired. Please try again.' },
      { body: { challengeId: MISSING_ID, response: 'signed' }, message: 'That passkey could not be checked. Please try again.' },
    ],
  },
  { method: 'get', route: '/api/auth/two-step', path: () => '/api/auth/two-step', anonymous: 401, signedIn: 200 },
  { method: 'post', route: '/api/auth/two-step/totp/setup', path: () => '/api/auth/two-step/totp/setup', anonymous: 401, signedIn: 200 },
  {
    method: 'post', route: '/api/auth/two-step/totp/confirm', path: () => '/api/auth/two-step/totp/confirm', body: () => ({ code: '000000' }), anonymous: 401, signedIn: 400,
    badInput: [
      { body: {}, message: 'Please enter the 6-digit code from your app' },
      { body: { code: '12345' }, message: 'Please enter the 6-digit code from your app' },
      { body: { code: 123456 }, message: 'Please enter the 6-digit code from your app' },
      { body: { code: '123456', secret: 'ABC' }, message: 'Unknown field: secret' },
    ],
  },
  {
    method: 'post', route: '/api/auth/two-step/totp/disable', path: () => '/api/auth/two-step/totp/disable', body: () => ({ password: 'not the password' }), anonymous: 401, signedIn: 400,
    badInput: [
      { body: {}, message: 'Please enter your password or use one of your passkeys' },
      { body: { password: 42 }, message: 'Please enter your password' },
      { body: { passkey: { challengeId: 'x', response: {} } }, message: 'This passkey request has expired. Please try again.' },
    ],
  },
  { method: 'post', route: '/api/auth/two-step/recovery-codes', path: () => '/api/auth/two-step/recovery-codes', body: () => ({ password: 'not the password' }), anonymous: 401, signedIn: 400 },
  { method: 'get', route: '/api/auth/passkeys', path: () => '/api/auth/passkeys', anonymous: 401, signedIn: 200 },
  { method: 'post', route: '/api/auth/passkeys/registration-options', path: () => '/api/auth/passkeys/registration-options', anonymous: 401, signedIn: 200 },
  {
    method: 'post', route: '/api/auth/passkeys', path: () => '/api/auth/passkeys', body: () => ({ challengeId: MISSING_ID, name: 'Phone', response: {} }), anonymous: 401, signedIn: 400,
    badInput: [
      { body: { challengeId: MISSING_ID, name: long(61), response: {} }, message: 'Please give the passkey a name of at most 60 characters' },
      { body: { challengeId: MISSING_ID, name: 'Phone', response: {}, counter: 9 }, message: 'Unknown field: counter' },
    ],
  },
  { method: 'post', route: '/api/auth/passkeys/confirm-options', path: () => '/api/auth/passkeys/confirm-options', anonymous: 401, signedIn: 400 },
  {
    method: 'patch', route: '/api/auth/passkeys/{id}', path: () => `/api/auth/passkeys/${MISSING_ID}`, body: () => ({ name: 'Laptop' }), anonymous: 401, signedIn: 404,
    badInput: [{ body: { name: '' }, message: 'Please give the passkey a name of at most 60 characters' }],
  },
  { method: 'post', route: '/api/auth/passkeys/{id}/remove', path: () => `/api/auth/passkeys/${MISSING_ID}/remove`, body: () => ({ proof: { password: 'x' } }), anonymous: 401, signedIn: 404 },
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
  {
    method: 'post', route: '/api/auth/account/deletion', path: () => '/api/auth/account/deletion', body: () => ({ password: 'not the password' }), anonymous: 401, signedIn: 400,
    badInput: [
      { body: {}, message: 'Please enter your password or use one of your passkeys' },
      { body: { password: 42 }, message: 'Please enter your password' },
      { body: { password: '' }, message: 'Please enter your password' },
      { body: { passkey: { challengeId: 'x', response: {} } }, message: 'This passkey request has expired. Please try again.' },
      { body: { password: 'x', now: true }, message: 'Unknown field: now' },
    ],
  },
  {
    method: 'post', route: '/api/auth/account/deletion/cancel', path: () => '/api/auth/account/deletion/cancel', body: () => ({ token: 'A'.repeat(43) }), anonymous: 401, signedIn: 401,
    badInput: [
      { body: {}, message: 'This offer to cancel the deletion has expired. Please sign in again.' },
      { body: { token: 'short' }, message: 'This offer to cancel the deletion has expired. Please sign in again.' },
      { body: { token: 'A'.repeat(43), userId: MISSING_ID }, message: 'Unknown field: userId' },
    ],
  },
  { method: 'get', route: '/api/users/{id}/profile', path: ({ userId }) => `/api/users/${userId}/profile`, anonymous: 401, signedIn: 200 },
  { method: 'get', route: '/api/auth/preferences', path: () => '/api/auth/preferences', anonymous: 401, signedIn: 200 },
  {
    method: 'put', route: '/api/auth/preferences', path: () => '/api/auth/preferences', body: () => ({ alwaysShowSensitive: true }), anonymous: 401, signedIn: 200,
    badInput: [
      { body: { alwaysShowSensitive: 'yes' }, message: 'alwaysShowSensitive must be true or false' },
      { body: { alwaysShowSensitive: null }, message: 'alwaysShowSensitive must be true or false' },
      { body: { showEverything: true }, message: 'Unknown field: showEverything' },
    ],
  },
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
