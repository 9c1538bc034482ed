import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { UserUpdatedSchema } from '@timeliner/proto';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('auth service', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startHarness('auth');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async (body = newUser(), ip?: string) => {
    const res = await h.call('post', '/api/auth/register', { ip }).send(body).expect(201);
    return { body, res, token: res.body.session.token as string, user: res.body.user };
  };
  const sessionOf = async (token: string) =>
    (await h.query<{ id: string; user_id: string }>('SELECT id, user_id FROM sessions WHERE token_hash = $1', [sha256(token)]))[0]!;

  describe('register', () => {
    it('creates the account and a session, answering user and session.token', async () => {
      const { res, body } = await register();
      expect(res.body.user).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        username: body.username,
        displayName: 'Test User',
        email: body.email,
        avatar: null,
        bio: null,
        location: null,
        website: null,
        isPrivate: false,
        createdAt: expect.any(String),
        followersCount: 0,
        followingCount: 0,
      });
      expect(res.body.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(new Date(res.body.session.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    });

    it('stores the token only as its SHA-256 and the password as argon2id (m=19 MiB, t=2, p=1)', async () => {
      const { token, user } = await register();
      const sessions = await h.query<{ token_hash: string }>('SELECT token_hash FROM sessions WHERE user_id = $1', [user.id]);
      expect(sessions).toEqual([{ token_hash: sha256(token) }]);
      const dump = JSON.stringify(await h.query('SELECT * FROM sessions'));
      expect(dump).not.toContain(token);
      const [row] = await h.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
      expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    });

    it('lower-cases username and e-mail, and refuses a taken one with one message for both', async () => {
      const body = newUser();
      await register({ ...body, username: body.username.toUpperCase(), email: body.email.toUpperCase() });
      const again = await h.call('post', '/api/auth/register').send({ ...newUser(), username: body.username }).expect(409);
      const sameEmail = await h.call('post', '/api/auth/register').send({ ...newUser(), email: body.email }).expect(409);
      expect(again.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'That username or email is already in use' });
      expect(sameEmail.body).toEqual(again.body);
    });

    it('writes UserRegistered to the outbox in the same transaction', async () => {
      const { user } = await register();
      const rows = await h.query<{ type: string }>('SELECT type FROM outbox WHERE actor_user_id = $1', [user.id]);
      expect(rows.map((r) => r.type)).toEqual(['auth.user.registered']);
    });
  });

  describe('login', () => {
    it('signs in with e-mail or username, any case, and opens a new session each time', async () => {
      const { body, user } = await register();
      const byEmail = await h.call('post', '/api/auth/login').send({ login: body.email.toUpperCase(), password: body.password }).expect(200);
      const byName = await h.call('post', '/api/auth/login').send({ login: ` ${body.username} `, password: body.password }).expect(200);
      expect(byEmail.body.user.id).toBe(user.id);
      expect(byName.body.user.id).toBe(user.id);
      expect(byEmail.body.session.token).not.toBe(byName.body.session.token);
    });

    it('answers an unknown account and a wrong password alike', async () => {
      const { body } = await register();
      const wrong = await h.call('post', '/api/auth/login', { ip: '203.0.113.7' }).send({ login: body.username, password: 'wrong password' }).expect(401);
      const unknown = await h.call('post', '/api/auth/login', { ip: '203.0.113.7' }).send({ login: 'nobody_here', password: 'wrong password' }).expect(401);
      expect(wrong.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid email/username or password' });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('takes similar time for an unknown account and a wrong password', async () => {
      const { body } = await register();
      const time = async (login: string, i: number) => {
        const started = process.hrtime.bigint();
        await h.call('post', '/api/auth/login', { ip: `192.0.2.${i}` }).send({ login, password: 'not the password' }).expect(401);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 8; i++) {
        known.push(await time(body.username, i));
        unknown.push(await time(`ghost_${i}`, i));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const [a, b] = [median(known), median(unknown)];
      // Both paths run one argon2id verification; a missing account must not be measurably faster.
      expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThan(0.35);
    });

    it('slows failures per account and address without locking the real user out elsewhere', async () => {
      const { body } = await register();
      const attacker = '203.0.113.66';
      for (let i = 0; i < 5; i++) {
        await h.call('post', '/api/auth/login', { ip: attacker }).send({ login: body.username, password: `guess-${i}` }).expect(401);
      }
      const limited = await h.call('post', '/api/auth/login', { ip: attacker }).send({ login: body.username, password: body.password }).expect(429);
      expect(limited.body.message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      await h.call('post', '/api/auth/login', { ip: '198.51.100.200' }).send({ login: body.username, password: body.password }).expect(200);
    });

    it('limits attempts per address across accounts', async () => {
      const ip = '203.0.113.99';
      let status = 0;
      for (let i = 0; i < 61 && status !== 429; i++) {
        status = (await h.call('post', '/api/auth/login', { ip }).send({ login: `spray_${i}`, password: 'password1' })).status;
      }
      expect(status).toBe(429);
    });

    it('limits registrations per address', async () => {
      const ip = '203.0.113.150';
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await h.call('post', '/api/auth/register', { ip }).send({ ...newUser(), password: 'x' })).status);
      // Invalid bodies are refused before counting; valid ones count.
      expect(statuses.every((s) => s === 400)).toBe(true);
      const valid: number[] = [];
      for (let i = 0; i < 21; i++) valid.push((await h.call('post', '/api/auth/register', { ip }).send(newUser())).status);
      expect(valid.slice(0, 20).every((s) => s === 201)).toBe(true);
      expect(valid[20]).toBe(429);
    });
  });

  describe('me, logout, profile', () => {
    it('returns the signed-in user', async () => {
      const { token, user } = await register();
      const s = await sessionOf(token);
      const me = await h.call('get', '/api/auth/me', { userId: s.user_id, sessionId: s.id }).expect(200);
      expect(me.body).toEqual(user);
    });

    it('logout revokes the session, emits SessionRevoked, and is harmless twice', async () => {
      const { token, user } = await register();
      const s = await sessionOf(token);
      await h.call('post', '/api/auth/logout', { userId: s.user_id, sessionId: s.id }).expect(204);
      const [row] = await h.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM sessions WHERE id = $1', [s.id]);
      expect(row!.revoked_at).not.toBeNull();
      const events = await h.query<{ type: string }>('SELECT type FROM outbox WHERE actor_user_id = $1 ORDER BY occurred_at', [user.id]);
      expect(events.map((e) => e.type)).toEqual(['auth.user.registered', 'auth.session.revoked']);
      await h.call('post', '/api/auth/logout', { userId: s.user_id, sessionId: s.id }).expect(204);
    });

    const AVATAR = '/api/media/3f2b1c4d-1111-4222-8333-444455556666/file';
    it('updates display name, bio and avatar, and emits UserUpdated', async () => {
      const { token, user } = await register();
      const s = await sessionOf(token);
      const as = { userId: s.user_id, sessionId: s.id };
      const res = await h.call('put', '/api/auth/profile', as).send({ displayName: '  Ada L.  ', bio: 'Makes timelines', avatar: AVATAR }).expect(200);
      expect(res.body).toMatchObject({ id: user.id, displayName: 'Ada L.', bio: 'Makes timelines', avatar: AVATAR });
      const events = await h.query<{ type: string }>("SELECT type FROM outbox WHERE actor_user_id = $1 AND type = 'auth.user.updated'", [user.id]);
      expect(events).toHaveLength(1);
    });

    it('updates location, website and the private flag; each change travels as the whole profile with its version, blanks clear', async () => {
      const { token, user } = await register();
      const s = await sessionOf(token);
      const as = { userId: s.user_id, sessionId: s.id };
      const own = `/api/users/${user.id.toUpperCase()}/avatar?v=17`;
      const res = await h.call('put', '/api/auth/profile', as)
        .send({ location: '  Lisbon  ', website: 'HTTPS://Example.com/ana', isPrivate: true, avatar: own }).expect(200);
      expect(res.body).toMatchObject({ location: 'Lisbon', website: 'https://example.com/ana', isPrivate: true, avatar: own });
      const profile = await h.call('get', `/api/users/${user.id}/profile`, as).expect(200);
      expect(profile.body).toMatchObject({ location: 'Lisbon', website: 'https://example.com/ana', isPrivate: true });

      // The same values again change nothing and publish nothing.
      await h.call('put', '/api/auth/profile', as).send({ location: 'Lisbon', isPrivate: true }).expect(200);
      const cleared = await h.call('put', '/api/auth/profile', as).send({ location: '', website: '', isPrivate: false }).expect(200);
      expect(cleared.body).toMatchObject({ location: null, website: null, isPrivate: false });

      const updates = await h.query<{ payload: Buffer }>("SELECT payload FROM outbox WHERE actor_user_id = $1 AND type = 'auth.user.updated' ORDER BY occurred_at", [user.id]);
      const decoded = updates.map((u) => fromBinary(UserUpdatedSchema, u.payload));
      expect(decoded.map(({ location, website, isPrivate, avatar, displayName, profileVersion }) => ({ location, website, isPrivate, avatar, displayName, profileVersion }))).toEqual([
        { location: 'Lisbon', website: 'https://example.com/ana', isPrivate: true, avatar: own, displayName: 'Test User', profileVersion: 2n },
        { location: '', website: '', isPrivate: false, avatar: own, displayName: 'Test User', profileVersion: 3n },
      ]);
    });

    it('profile shows public fields and real zero counts, never the e-mail', async () => {
      const { token, user } = await register();
      const s = await sessionOf(token);
      const res = await h.call('get', `/api/users/${user.id}/profile`, { userId: s.user_id, sessionId: s.id }).expect(200);
      expect(res.body).toMatchObject({
        id: user.id, username: user.username, displayName: 'Test User', isVerified: false, isPrivate: false,
        timelinesCount: 0, followersCount: 0, followingCount: 0, totalLikes: 0, totalViews: 0,
      });
      expect(res.body).not.toHaveProperty('email');
      await h.query('UPDATE users SET followers_count = 7, total_views = 1234 WHERE id = $1', [user.id]);
      const again = await h.call('get', `/api/users/${user.id}/profile`, { userId: s.user_id, sessionId: s.id }).expect(200);
      expect(again.body).toMatchObject({ followersCount: 7, totalViews: 1234 });
    });
  });

  describe('identity headers', () => {
    it('refuses identity headers that are not signed by the gateway', async () => {
      const { token } = await register();
      const s = await sessionOf(token);
      const res = await h.call('get', '/api/auth/me', { userId: s.user_id, sessionId: s.id }).set('x-tl-user-id', '00000000-0000-4000-8000-000000000000').expect(401);
      expect(res.body.message).toBe('Invalid internal identity');
    });
  });
});
