import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signInWait } from '../src/auth/auth.limits.js';
import { type AuthHarness, newUser, startHarness } from './harness.js';

/**
 * Lockout that locks out the attacker, not the owner: failures per account and source address
 * with growing delays; a burst against one account from many addresses slows those addresses, the
 * owner still signs in from their own, and is told by e-mail.
 */
describe('sign-in lockout', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startHarness('lockout');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async () => {
    const body = newUser();
    const res = await h.call('post', '/api/auth/register', { ip: '198.51.100.250' }).send(body).expect(201);
    return { body, userId: res.body.user.id as string };
  };
  const login = (ip: string, login: string, password: string) => h.call('post', '/api/auth/login', { ip }).send({ login, password });
  /** Moves the latest failure of an address back in time, as if the caller had waited. */
  const waitAsIf = (userId: string, ip: string, seconds: number) =>
    h.query(`UPDATE rate_limits SET window_start = window_start - make_interval(secs => $2) WHERE key = $1`, [`login:delay:user:${userId}:${ip}`, seconds]);

  it('grows the delay with each failure from an address: 1 s, 2 s, 4 s … at most 15 minutes', () => {
    const now = Date.now();
    const at = new Date(now);
    expect([0, 4, 5, 6, 7, 20].map((count) => signInWait(count, at, false, now))).toEqual([0, 0, 1, 2, 4, 900]);
    expect([0, 1, 2].map((count) => signInWait(count, at, true, now))).toEqual([0, 1, 2]);
    expect(signInWait(6, new Date(now - 3_000), false, now)).toBe(0);
  });

  it('counts the person however the name is typed, and makes an address wait longer after each failure', async () => {
    const { body, userId } = await register();
    const ip = '203.0.113.10';
    for (const typed of [body.username, body.email, body.username.toUpperCase(), body.email, body.username]) {
      await login(ip, typed, 'not the password').expect(401);
    }
    const first = await login(ip, body.username, body.password).expect(429);
    expect(Number(first.headers['retry-after'])).toBe(1);
    await waitAsIf(userId, ip, 2);
    await login(ip, body.email, 'still not it').expect(401);
    const second = await login(ip, body.username, body.password).expect(429);
    expect(Number(second.headers['retry-after'])).toBe(2);
    await waitAsIf(userId, ip, 3);
    // Waited: the right password works, and the address starts afresh.
    await login(ip, body.username, body.password).expect(200);
    await login(ip, body.username, 'wrong once more').expect(401);
    await login(ip, body.username, body.password).expect(200);
  });

  it("a burst from many addresses slows those addresses, never the owner's own sign-in, and tells the owner once", async () => {
    const { body, userId } = await register();
    // 100 wrong passwords from ten addresses: the attack that used to lock the owner out for an hour.
    const statuses: number[] = [];
    for (let a = 0; a < 10; a += 1) {
      for (let i = 0; i < 10; i += 1) statuses.push((await login(`198.51.100.${a + 10}`, body.username, `guess-${a}-${i}`)).status);
    }
    // From the 21st wrong password on, all the addresses share one attempt per 10 s: no password is checked for the rest.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(25);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // A new address is held at that door too, told when to come back.
    const held = await login('198.51.100.99', body.username, 'a new guess').expect(429);
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(10);
    // Once the door opens it has one free try, then waits like the others.
    await h.query(`UPDATE rate_limits SET window_start = window_start - interval '11 seconds' WHERE key = $1`, [`login:burst-gate:user:${userId}`]);
    await login('198.51.100.99', body.username, 'a new guess').expect(401);
    await login('198.51.100.99', body.username, 'another guess').expect(429);
    // The owner, from the device they signed up on, with their password: never held.
    await login('198.51.100.250', body.username, body.password).expect(200);
    await login('198.51.100.250', body.email, body.password).expect(200);

    const mail = await h.waitForMail(body.email);
    expect(mail.subject).toBe('Someone is trying to sign in to your Timeliner account');
    expect(mail.text).toMatch(/from \d+ addresses/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await h.mails()).filter((m) => m.to.includes(body.email))).toHaveLength(1);
  });

  it("the owner on a device they signed in from before is not slowed, even behind the attacker's address", async () => {
    const { body } = await register();
    const shared = '192.0.2.150';
    const ownBrowser = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
    await h.call('post', '/api/auth/login', { ip: shared }).set('user-agent', ownBrowser).send({ login: body.username, password: body.password }).expect(200);
    // A burst from many addresses, the shared one among them.
    for (let a = 0; a < 6; a += 1) {
      for (let i = 0; i < 6; i += 1) await h.call('post', '/api/auth/login', { ip: a === 0 ? shared : `198.51.100.${a + 150}` }).set('user-agent', 'attack-tool/1.0').send({ login: body.username, password: `guess-${a}-${i}` });
    }
    await h.call('post', '/api/auth/login', { ip: shared }).set('user-agent', 'attack-tool/1.0').send({ login: body.username, password: body.password }).expect(429);
    await h.call('post', '/api/auth/login', { ip: shared }).set('user-agent', ownBrowser).send({ login: body.username, password: body.password }).expect(200);
  });

  it('answers an unknown name as a known one, delays included', async () => {
    const ip = '203.0.113.44';
    for (let i = 0; i < 5; i += 1) await login(ip, 'nobody_here', `guess-${i}`).expect(401);
    await login(ip, 'nobody_here', 'guess-5').expect(429);
  });
});
