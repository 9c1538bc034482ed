import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { type AuthHarness, newUser, startHarness } from './harness.js';

/** The code an authenticator app shows for a secret at a moment (RFC 6238: SHA-1, 6 digits, 30 s). */
const codeAt = (secret: string, atMs: number) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: atMs });

/** Two-step sign-in with an authenticator app and recovery codes, against a fixed clock. */
describe('two-step sign-in', () => {
  let h: AuthHarness;
  // The middle of a 30-second step, so the steps before and after are whole steps away.
  let now = Date.UTC(2026, 10, 28, 12, 0, 15);
  let ipCounter = 0;
  const ip = () => `203.0.113.${(ipCounter += 1)}`;
  const key = randomBytes(32);

  beforeAll(async () => {
    h = await startHarness('twostep', { clock: () => now, totpSecretKey: key });
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async (body = newUser()) => {
    const res = await h.call('post', '/api/auth/register', { ip: ip() }).send(body).expect(201);
    const userId = res.body.user.id as string;
    const [session] = await h.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1', [userId]);
    return { body, userId, as: { userId, sessionId: session!.id, ip: ip() } };
  };
  const sessionsOf = async (userId: string) => (await h.query<{ count: number }>('SELECT count(*)::int AS count FROM sessions WHERE user_id = $1', [userId]))[0]!.count;

  /** Registers and turns two-step sign-in on; answers the secret and the recovery codes. */
  const withTwoStep = async () => {
    const account = await register();
    const setup = await h.call('post', '/api/auth/two-step/totp/setup', account.as).expect(200);
    const secret = setup.body.secret as string;
    const confirmed = await h.call('post', '/api/auth/two-step/totp/confirm', account.as).send({ code: codeAt(secret, now) }).expect(200);
    now += 60_000; // the confirming code's step is used; sign-ins below use later ones, the step before now included
    return { ...account, secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  };
  const passwordStep = async (login: string, password: string, from = ip()) => {
    const res = await h.call('post', '/api/auth/login', { ip: from }).send({ login, password }).expect(202);
    expect(res.body.session).toBeUndefined();
    return res.body.secondStep.token as string;
  };
  const codeStep = (token: string, code: string, from = ip()) => h.call('post', '/api/auth/login/second-step', { ip: from }).send({ token, code });

  it('sets up with a QR code and the secret, is on only after a right code, and never shows the secret again', async () => {
    const { as, userId, body } = await register();
    expect((await h.call('get', '/api/auth/two-step', as).expect(200)).body).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
    const setup = await h.call('post', '/api/auth/two-step/totp/setup', as).expect(200);
    const secret = setup.body.secret as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.uri).toContain(`secret=${secret}`);
    expect(setup.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from((setup.body.qrCode as string).split(',')[1]!, 'base64').toString()).toContain('<svg');

    // Not on yet: a sign-in with the password alone still opens a session.
    const [user] = await h.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [userId]);
    await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: user!.username, password: 'correct horse' }).expect(200);

    const wrong = await h.call('post', '/api/auth/two-step/totp/confirm', as).send({ code: codeAt(secret, now + 5 * 60_000) }).expect(400);
    expect(wrong.body.message).toBe('That code is not right. Please try again.');
    await h.call('post', '/api/auth/two-step/totp/confirm', as).send({ code: 'abcdef' }).expect(400);
    const confirmed = await h.call('post', '/api/auth/two-step/totp/confirm', as).send({ code: codeAt(secret, now) }).expect(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // The owner is told by e-mail; the e-mail carries neither the secret nor the codes.
    const notice = await h.waitForMail(body.email);
    expect(notice.subject).toBe('How you sign in to Timeliner changed');
    expect(notice.text).toContain('Two-step sign-in was turned on');
    expect(notice.text).not.toContain(secret);
    expect(notice.text).not.toContain(codes[0]);

    const status = await h.call('get', '/api/auth/two-step', as).expect(200);
    expect(status.body).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    // A second set-up while it is on is refused, and the secret stays.
    await h.call('post', '/api/auth/two-step/totp/setup', as).expect(409);
    // Stored sealed; the recovery codes only as salted hashes.
    const [stored] = await h.query<{ secret: string }>('SELECT secret FROM totp_factors WHERE user_id = $1', [userId]);
    expect(stored!.secret).toMatch(/^v1\./);
    expect(stored!.secret).not.toContain(secret);
    const hashes = await h.query<{ salt: string; code_hash: string }>('SELECT salt, code_hash FROM recovery_codes WHERE user_id = $1', [userId]);
    expect(hashes).toHaveLength(10);
    expect(new Set(hashes.map((row) => row.salt)).size).toBe(10);
    expect(JSON.stringify(hashes)).not.toContain(codes[0]!.replace('-', ''));
  });

  it('asks a password sign-in for a code: none of the previous, current and next steps opens a session twice, and two steps away is refused', async () => {
    const { body, userId, secret } = await withTwoStep();
    const before = await sessionsOf(userId);

    // The password alone opens nothing.
    const token = await passwordStep(body.username, body.password);
    expect(await sessionsOf(userId)).toBe(before);
    // Two steps away: refused.
    expect((await codeStep(token, codeAt(secret, now - 60_000))).status).toBe(401);
    expect((await codeStep(token, codeAt(secret, now + 60_000))).status).toBe(401);
    // The previous step's code (the app's clock a little behind) is accepted.
    const previous = codeAt(secret, now - 30_000);
    const signedIn = await codeStep(token, previous).expect(200);
    expect(signedIn.body.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signedIn.body.user.id).toBe(userId);
    expect(await sessionsOf(userId)).toBe(before + 1);
    // The token worked once.
    expect((await codeStep(token, codeAt(secret, now))).body.message).toBe('This sign-in has expired. Please sign in again.');

    // The same code again, in a new sign-in: refused (replay), however quickly it comes.
    const again = await passwordStep(body.username, body.password);
    const replay = await codeStep(again, previous).expect(401);
    expect(replay.body.message).toBe('That code is not right. Please try again.');
    // The current step's code works, and then the next step's code (the app's clock a little ahead).
    await codeStep(again, codeAt(secret, now)).expect(200);
    const third = await passwordStep(body.username, body.password);
    await codeStep(third, codeAt(secret, now)).expect(401);
    await codeStep(third, codeAt(secret, now + 30_000)).expect(200);
    expect(await sessionsOf(userId)).toBe(before + 3);
    now += 90_000;
  });

  it('takes each recovery code once, in any case and with or without the dash', async () => {
    const { body, userId, recoveryCodes, as } = await withTwoStep();
    const first = await passwordStep(body.email, body.password);
    await codeStep(first, recoveryCodes[0]!.toUpperCase().replace('-', ' ')).expect(200);
    const second = await passwordStep(body.email, body.password);
    expect((await codeStep(second, recoveryCodes[0]!)).status).toBe(401);
    await codeStep(second, recoveryCodes[1]!).expect(200);
    expect((await h.call('get', '/api/auth/two-step', as).expect(200)).body.recoveryCodesLeft).toBe(8);
    const [used] = await h.query<{ count: number }>('SELECT count(*)::int AS count FROM recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL', [userId]);
    expect(used!.count).toBe(2);
  });

  it('ends a pending sign-in after five wrong codes, and counts wrong codes under the sign-in lockout', async () => {
    const { body, secret } = await withTwoStep();
    const from = ip();
    const token = await passwordStep(body.username, body.password, from);
    for (let i = 0; i < 5; i += 1) expect((await codeStep(token, '000000', from)).status).toBe(401);
    // Worn out: even the right code no longer works with this token.
    expect((await codeStep(token, codeAt(secret, now), from)).body.message).toBe('This sign-in has expired. Please sign in again.');
    // Five failures from this address: the next attempt waits, with the password as with a code.
    const waited = await h.call('post', '/api/auth/login', { ip: from }).send({ login: body.username, password: body.password }).expect(429);
    expect(Number(waited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not slowed by these failures.
    const elsewhere = await passwordStep(body.username, body.password);
    await codeStep(elsewhere, codeAt(secret, now)).expect(200);
    now += 60_000;
  });

  it('refuses a wrong or made-up token and malformed codes without opening a session', async () => {
    await codeStep(randomBytes(32).toString('base64url'), '123456').expect(401);
    await codeStep('short', '123456').expect(400);
    const { body } = await withTwoStep();
    const token = await passwordStep(body.username, body.password);
    await codeStep(token, '12').expect(400);
    expect((await codeStep(token, 'not a code at all')).status).toBe(401);
  });

  it('turns off only with the password (or a passkey), and then a password alone signs in again', async () => {
    const { body, as, userId } = await withTwoStep();
    expect((await h.call('post', '/api/auth/two-step/totp/disable', as).send({}).expect(400)).body.message).toBe('Please enter your password or use one of your passkeys');
    expect((await h.call('post', '/api/auth/two-step/totp/disable', as).send({ password: 'not my password' }).expect(400)).body.message).toBe('Your password is not right');
    await h.call('post', '/api/auth/two-step/totp/disable', as).send({ passkey: { challengeId: 'nope', response: {} } }).expect(400);
    // Signed out: 401 (the gateway would not even pass it on).
    await h.call('post', '/api/auth/two-step/totp/disable').send({ password: body.password }).expect(401);
    expect((await h.call('get', '/api/auth/two-step', as).expect(200)).body.enabled).toBe(true);

    await h.call('post', '/api/auth/two-step/totp/disable', as).send({ password: body.password }).expect(204);
    expect((await h.waitForMail(body.email, 2)).text).toContain('Two-step sign-in was turned off');
    expect((await h.call('get', '/api/auth/two-step', as).expect(200)).body).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
    expect(await h.query('SELECT 1 FROM recovery_codes WHERE user_id = $1', [userId])).toHaveLength(0);
    const signedIn = await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.username, password: body.password }).expect(200);
    expect(signedIn.body.session.token).toBeDefined();
  });

  it('gives new recovery codes only with the password; the earlier ones stop working', async () => {
    const { body, as, recoveryCodes } = await withTwoStep();
    await h.call('post', '/api/auth/two-step/recovery-codes', as).send({ password: 'wrong password' }).expect(400);
    const fresh = (await h.call('post', '/api/auth/two-step/recovery-codes', as).send({ password: body.password }).expect(200)).body.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    const token = await passwordStep(body.username, body.password);
    expect((await codeStep(token, recoveryCodes[0]!)).status).toBe(401);
    await codeStep(token, fresh[0]!).expect(200);
  });

  it('does not let one person use another person\'s codes or pending sign-in', async () => {
    const ada = await withTwoStep();
    const bob = await withTwoStep();
    const token = await passwordStep(ada.body.username, ada.body.password);
    expect((await codeStep(token, codeAt(bob.secret, now))).status).toBe(401);
    expect((await codeStep(token, bob.recoveryCodes[0]!)).status).toBe(401);
    const signedIn = await codeStep(token, ada.recoveryCodes[0]!).expect(200);
    expect(signedIn.body.user.id).toBe(ada.userId);
  });
});
