import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { COMMON_PASSWORD_MESSAGE } from '../src/security/common-passwords.js';
import { FORGOT_PASSWORD_ANSWER, INVALID_RESET_LINK } from '../src/account/password.service.js';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const RESET_LINK = /http:\/\/app\.test\/reset-password\/([A-Za-z0-9_-]{43})/;

/** Forgotten password (reset by e-mail) and password change, with real Postgres and the file mail adapter. */
describe('passwords', () => {
  let h: AuthHarness;
  let ipCounter = 0;
  /** A fresh source address per test, so the per-address limits of one test do not touch another. */
  const ip = () => `203.0.113.${(ipCounter += 1)}`;
  beforeAll(async () => {
    h = await startHarness('passwords');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async (body = newUser()) => {
    const res = await h.call('post', '/api/auth/register', { ip: ip() }).send(body).expect(201);
    return { body, token: res.body.session.token as string, userId: res.body.user.id as string };
  };
  const signIn = async (login: string, password: string) => {
    const res = await h.call('post', '/api/auth/login', { ip: ip() }).send({ login, password });
    return { status: res.status, token: res.body?.session?.token as string | undefined };
  };
  const sessionOf = async (token: string) =>
    (await h.query<{ id: string; user_id: string; revoked_at: Date | null }>('SELECT id, user_id, revoked_at FROM sessions WHERE token_hash = $1', [sha256(token)]))[0]!;
  const forgot = (email: string, from = ip()) => h.call('post', '/api/auth/password/forgot', { ip: from }).send({ email });
  const linkIn = (text: string) => RESET_LINK.exec(text)?.[1];

  describe('forgotten password', () => {
    it('answers an unknown address exactly as a known one, and e-mails only the account', async () => {
      const { body } = await register();
      const known = await forgot(body.email.toUpperCase());
      const unknown = await forgot(`nobody_${Date.now()}@example.com`);
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      expect(known.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
      const headers = (res: typeof known) => Object.keys(res.headers).filter((k) => !['date', 'x-request-id', 'content-length'].includes(k)).sort();
      expect(headers(unknown)).toEqual(headers(known));
      const mail = await h.waitForMail(body.email);
      expect(mail.subject).toBe('Reset your Timeliner password');
      expect(linkIn(mail.text)).toBeDefined();
      expect((await h.mails()).filter((m) => m.to.includes('nobody_'))).toEqual([]);
    });

    it('stores the token only hashed; the link from the e-mail works once, ends every session and tells the owner', async () => {
      const { body, token: first, userId } = await register();
      const second = (await signIn(body.username, body.password)).token!;
      await forgot(body.email).expect(202);
      const token = linkIn((await h.waitForMail(body.email)).text)!;
      const [stored] = await h.query<{ token_hash: string; expires_at: Date; used: boolean }>('SELECT token_hash, expires_at, used FROM password_resets WHERE user_id = $1', [userId]);
      expect(stored!.token_hash).toBe(sha256(token));
      expect(stored!.used).toBe(false);
      // 30 minutes, give or take the test's own time.
      expect(stored!.expires_at.getTime() - Date.now()).toBeGreaterThan(29 * 60 * 1000);
      expect(stored!.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);

      // A common password is refused and the link stays usable.
      const common = await h.call('post', '/api/auth/password/reset', { ip: ip() }).send({ token, password: 'qwerty123' }).expect(400);
      expect(common.body.message).toBe(COMMON_PASSWORD_MESSAGE);

      await h.call('post', '/api/auth/password/reset', { ip: ip() }).send({ token, password: 'a brand new secret' }).expect(204);
      expect((await sessionOf(first)).revoked_at).not.toBeNull();
      expect((await sessionOf(second)).revoked_at).not.toBeNull();
      const revoked = await h.query<{ type: string }>(`SELECT type FROM outbox WHERE actor_user_id = $1 AND type = 'auth.session.revoked'`, [userId]);
      expect(revoked).toHaveLength(2);

      expect((await signIn(body.username, body.password)).status).toBe(401);
      expect((await signIn(body.username, 'a brand new secret')).status).toBe(200);
      const again = await h.call('post', '/api/auth/password/reset', { ip: ip() }).send({ token, password: 'yet another secret' }).expect(400);
      expect(again.body.message).toBe(INVALID_RESET_LINK);
      expect((await signIn(body.username, 'a brand new secret')).status).toBe(200);
      expect((await h.waitForMail(body.email, 2)).subject).toBe('Your Timeliner password was changed');
    });

    it('refuses an expired link, a made-up one and a malformed one, changing nothing', async () => {
      const { body, userId } = await register();
      await forgot(body.email).expect(202);
      const token = linkIn((await h.waitForMail(body.email)).text)!;
      await h.query(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
      const before = await h.query('SELECT password_hash FROM users WHERE id = $1', [userId]);
      for (const attempt of [token, 'A'.repeat(43), 'short', 42]) {
        const res = await h.call('post', '/api/auth/password/reset', { ip: ip() }).send({ token: attempt, password: 'a brand new secret' }).expect(400);
        expect(res.body.message).toBe(INVALID_RESET_LINK);
      }
      expect(await h.query('SELECT password_hash FROM users WHERE id = $1', [userId])).toEqual(before);
      expect((await signIn(body.username, body.password)).status).toBe(200);
    });

    it('a newer link and a successful reset use up every other open link', async () => {
      const { body } = await register();
      await forgot(body.email).expect(202);
      await forgot(body.email).expect(202);
      const older = linkIn((await h.waitForMail(body.email, 1)).text)!;
      const newer = linkIn((await h.waitForMail(body.email, 2)).text)!;
      await h.call('post', '/api/auth/password/reset', { ip: ip() }).send({ token: newer, password: 'a brand new secret' }).expect(204);
      await h.call('post', '/api/auth/password/reset', { ip: ip() }).send({ token: older, password: 'another new secret' }).expect(400);
    });

    it('limits requests per e-mail address (known or not alike) and per source address, with Retry-After', async () => {
      const { body } = await register();
      for (let i = 0; i < 3; i += 1) await forgot(body.email).expect(202);
      const limited = await forgot(body.email).expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      const unknown = `nobody_${Date.now()}@example.com`;
      for (let i = 0; i < 3; i += 1) await forgot(unknown).expect(202);
      await forgot(unknown).expect(429);
      expect((await h.mails()).filter((m) => m.to.includes(body.email))).toHaveLength(3);

      const from = ip();
      for (let i = 0; i < 10; i += 1) await forgot(`someone_${i}_${Date.now()}@example.com`, from).expect(202);
      await forgot(`someone_else_${Date.now()}@example.com`, from).expect(429);
    });
  });

  describe('change password', () => {
    it('needs the current password; ends every other session, keeps this one, and tells the owner', async () => {
      const { body, token, userId } = await register();
      const other = (await signIn(body.username, body.password)).token!;
      const me = await sessionOf(token);
      const as = { userId, sessionId: me.id, ip: ip() };

      const wrong = await h.call('put', '/api/auth/password', as).send({ currentPassword: 'not my password', newPassword: 'a brand new secret' }).expect(400);
      expect(wrong.body.message).toBe('Your current password is not right');
      const common = await h.call('put', '/api/auth/password', as).send({ currentPassword: body.password, newPassword: 'iloveyou' }).expect(400);
      expect(common.body.message).toBe(COMMON_PASSWORD_MESSAGE);
      expect((await sessionOf(other)).revoked_at).toBeNull();

      const res = await h.call('put', '/api/auth/password', as).send({ currentPassword: body.password, newPassword: 'a brand new secret' }).expect(200);
      expect(res.body).toEqual({ signedOutSessions: 1 });
      expect((await sessionOf(other)).revoked_at).not.toBeNull();
      expect((await sessionOf(token)).revoked_at).toBeNull();
      expect((await signIn(body.username, body.password)).status).toBe(401);
      expect((await signIn(body.username, 'a brand new secret')).status).toBe(200);
      expect((await h.waitForMail(body.email)).subject).toBe('Your Timeliner password was changed');
    });

    it('slows down guessing of the current password', async () => {
      const { token, userId } = await register();
      const as = { userId, sessionId: (await sessionOf(token)).id, ip: ip() };
      for (let i = 0; i < 10; i += 1) {
        await h.call('put', '/api/auth/password', as).send({ currentPassword: `guess number ${i}`, newPassword: 'a brand new secret' }).expect(400);
      }
      await h.call('put', '/api/auth/password', as).send({ currentPassword: 'guess number 11', newPassword: 'a brand new secret' }).expect(429);
    });
  });
});
