import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { SessionRevokedSchema, UserUpdatedSchema } from '@timeliner/proto';
import { INVALID_EMAIL_LINK } from '../src/account/email.dto.js';
import { describeUserAgent } from '../src/sessions/sessions.dto.js';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const CONFIRM_LINK = /http:\/\/app\.test\/confirm-email\/([A-Za-z0-9_-]{43})/;
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

/** Changing the e-mail address, and one's sessions: the list, ending one, ending all others. */
describe('account security', () => {
  let h: AuthHarness;
  let ipCounter = 0;
  const ip = () => `192.0.2.${(ipCounter += 1)}`;
  beforeAll(async () => {
    h = await startHarness('acctsec');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async (body = newUser(), userAgent = PHONE) => {
    const res = await h.call('post', '/api/auth/register', { ip: ip() }).set('user-agent', userAgent).send(body).expect(201);
    const token = res.body.session.token as string;
    const session = await sessionOf(token);
    return { body, token, userId: res.body.user.id as string, as: { userId: res.body.user.id as string, sessionId: session.id, ip: ip() } };
  };
  const signIn = async (login: string, password: string, userAgent = MAC, from = ip()) => {
    const res = await h.call('post', '/api/auth/login', { ip: from }).set('user-agent', userAgent).send({ login, password });
    return { status: res.status, token: res.body?.session?.token as string };
  };
  const sessionOf = async (token: string) =>
    (await h.query<{ id: string; revoked_at: Date | null }>('SELECT id, revoked_at FROM sessions WHERE token_hash = $1', [sha256(token)]))[0]!;

  describe('change e-mail', () => {
    it('needs the current password, is confirmed from the new address once, and tells the old one', async () => {
      const { body, userId, as } = await register();
      const newEmail = `moved_${Date.now()}@example.org`;
      const wrong = await h.call('put', '/api/auth/email', as).send({ newEmail, currentPassword: 'not my password' }).expect(400);
      expect(wrong.body.message).toBe('Your current password is not right');
      const same = await h.call('put', '/api/auth/email', as).send({ newEmail: body.email.toUpperCase(), currentPassword: body.password }).expect(400);
      expect(same.body.message).toBe('That is already the email address of your account');

      const asked = await h.call('put', '/api/auth/email', as).send({ newEmail: newEmail.toUpperCase(), currentPassword: body.password }).expect(202);
      expect(asked.body.pendingEmail).toBe(newEmail);
      // Nothing changes until the new address confirms.
      expect((await h.call('get', '/api/auth/me', as).expect(200)).body.email).toBe(body.email);
      const notice = await h.waitForMail(body.email);
      expect(notice.subject).toBe('Your Timeliner e-mail address is being changed');
      expect(notice.text).toContain(newEmail);
      const token = CONFIRM_LINK.exec((await h.waitForMail(newEmail)).text)![1]!;
      const [stored] = await h.query<{ token_hash: string }>('SELECT token_hash FROM email_changes WHERE user_id = $1', [userId]);
      expect(stored!.token_hash).toBe(sha256(token));

      // Confirmed from a device that is not signed in.
      const confirmed = await h.call('post', '/api/auth/email/confirm', { ip: ip() }).send({ token }).expect(200);
      expect(confirmed.body).toEqual({ email: newEmail });
      expect((await h.call('get', '/api/auth/me', as).expect(200)).body.email).toBe(newEmail);
      expect((await signIn(newEmail, body.password)).status).toBe(200);
      expect((await signIn(body.email, body.password)).status).toBe(401);
      expect((await h.waitForMail(body.email, 2)).subject).toBe('Your Timeliner e-mail address was changed');
      const [event] = await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE actor_user_id = $1 AND type = 'auth.user.updated'`, [userId]);
      expect(fromBinary(UserUpdatedSchema, event!.payload)).toMatchObject({ userId, email: newEmail });

      const again = await h.call('post', '/api/auth/email/confirm', { ip: ip() }).send({ token }).expect(400);
      expect(again.body.message).toBe(INVALID_EMAIL_LINK);
    });

    it('refuses an address another account uses, and an expired link', async () => {
      const taken = await register();
      const { body, userId, as } = await register();
      const res = await h.call('put', '/api/auth/email', as).send({ newEmail: taken.body.email, currentPassword: body.password }).expect(409);
      expect(res.body.message).toBe('That email address is already in use');

      const newEmail = `later_${Date.now()}@example.org`;
      await h.call('put', '/api/auth/email', as).send({ newEmail, currentPassword: body.password }).expect(202);
      const token = CONFIRM_LINK.exec((await h.waitForMail(newEmail)).text)![1]!;
      await h.query(`UPDATE email_changes SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
      expect((await h.call('post', '/api/auth/email/confirm', { ip: ip() }).send({ token }).expect(400)).body.message).toBe(INVALID_EMAIL_LINK);
      expect((await h.call('get', '/api/auth/me', as).expect(200)).body.email).toBe(body.email);
    });
  });

  describe('sessions', () => {
    it('lists one\'s own open sessions with browser, system, address and times, this device first', async () => {
      const { body, as } = await register();
      await signIn(body.username, body.password, MAC, '192.0.2.200');
      const ended = await signIn(body.username, body.password, MAC);
      await h.call('post', '/api/auth/logout', { userId: as.userId, sessionId: (await sessionOf(ended.token)).id }).expect(204);
      const stranger = await register();

      const list = (await h.call('get', '/api/auth/sessions', as).expect(200)).body as Array<Record<string, unknown>>;
      expect(list).toHaveLength(2);
      expect(list[0]).toEqual({
        id: as.sessionId, browser: 'Chrome 131', system: 'Android 14', deviceType: 'mobile', ipAddress: expect.any(String),
        createdAt: expect.any(String), lastActiveAt: expect.any(String), current: true,
      });
      expect(list[1]).toMatchObject({ browser: 'Safari 17', system: 'macOS Catalina', deviceType: 'desktop', ipAddress: '192.0.2.200', current: false });
      expect(list.map((s) => s.id)).not.toContain(stranger.as.sessionId);
    });

    it('ends one session of one\'s own (announced for every gateway), never another person\'s', async () => {
      const { body, as, userId } = await register();
      const other = await signIn(body.username, body.password);
      const otherId = (await sessionOf(other.token)).id;
      const stranger = await register();

      await h.call('delete', `/api/auth/sessions/${stranger.as.sessionId}`, as).expect(404);
      expect((await sessionOf(stranger.token)).revoked_at).toBeNull();
      await h.call('delete', '/api/auth/sessions/not-a-session', as).expect(404);

      await h.call('delete', `/api/auth/sessions/${otherId}`, as).expect(204);
      expect((await sessionOf(other.token)).revoked_at).not.toBeNull();
      const [event] = await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE actor_user_id = $1 AND type = 'auth.session.revoked'`, [userId]);
      expect(fromBinary(SessionRevokedSchema, event!.payload)).toMatchObject({ sessionId: otherId, userId, tokenHash: sha256(other.token) });
      await h.call('delete', `/api/auth/sessions/${otherId}`, as).expect(404);
    });

    it('signs out every other session and keeps this one', async () => {
      const { body, as, token } = await register();
      const others = [await signIn(body.username, body.password), await signIn(body.username, body.password)];
      const res = await h.call('delete', '/api/auth/sessions', as).expect(200);
      expect(res.body).toEqual({ signedOutSessions: 2 });
      for (const other of others) expect((await sessionOf(other.token)).revoked_at).not.toBeNull();
      expect((await sessionOf(token)).revoked_at).toBeNull();
      expect((await h.call('get', '/api/auth/sessions', as).expect(200)).body).toHaveLength(1);
    });

    it('names unknown user agents plainly', () => {
      expect(describeUserAgent(null)).toEqual({ browser: 'Unknown browser', system: 'Unknown system', deviceType: 'unknown' });
      expect(describeUserAgent('curl/8.5.0').system).toBe('Unknown system');
    });
  });
});
