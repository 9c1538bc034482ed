import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { fromBinary } from '@bufbuild/protobuf';
import type { BusMessage } from '@timeliner/platform';
import { RevocationReason, SessionRevokedSchema, UserDeletedSchema } from '@timeliner/proto';
import { AccountDeletionService } from '../src/deletion/account-deletion.service.js';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const root = path.resolve(import.meta.dirname, '../../..');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const DAY = 24 * 60 * 60 * 1000;
const EXPIRED = 'This offer to cancel the deletion has expired. Please sign in again.';

/** Deleting one's account: the request with a proof, sessions ended, the grace period's offer to cancel, and the purge. */
describe('account deletion', () => {
  let h: AuthHarness;
  let ipCounter = 0;
  const ip = () => `203.0.113.${(ipCounter += 1)}`;
  beforeAll(async () => {
    h = await startHarness('acctdel');
  });
  afterAll(async () => {
    await h.close();
  });

  const register = async (body = newUser()) => {
    const res = await h.call('post', '/api/auth/register', { ip: ip() }).send(body).expect(201);
    const userId = res.body.user.id as string;
    const [session] = await h.query<{ id: string }>('SELECT id FROM sessions WHERE token_hash = $1', [sha256(res.body.session.token as string)]);
    return { body, userId, as: { userId, sessionId: session!.id, ip: ip() } };
  };
  const openSessions = async (userId: string) => Number((await h.query<{ n: string }>('SELECT count(*) AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [userId]))[0]!.n);
  const purger = () => h.service.app.get(AccountDeletionService);
  /** The events of `type` published for `userId` (heard on the bus: once sent, the outbox rows naming a deleted person go). */
  const published = async (type: string) => {
    const heard: BusMessage[] = [];
    const subscription = await h.bus.subscribe(`${type}.v1`, (m) => void heard.push(m));
    return { of: (userId: string) => heard.filter((m) => m.meta.actorUserId === userId), close: () => subscription.unsubscribe() };
  };
  const until = async (check: () => Promise<boolean> | boolean, what: string, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** Rows of every table but `migrations` naming the person: as text, and by the names' bytes in binary columns (the outbox's payloads). */
  const rowsNaming = async (names: string[]) => {
    const found: Array<{ table: string; row: unknown }> = [];
    const tables = await h.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'migrations'`);
    for (const { table_name: table } of tables) {
      const binary = await h.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND data_type = 'bytea'`, [table]);
      const inBytes = binary.map(({ column_name: column }) => ` OR EXISTS (SELECT 1 FROM unnest($2::text[]) n WHERE position(convert_to(n, 'UTF8') in t."${column}") > 0)`).join('');
      const patterns = names.map((n) => `%${n}%`);
      const rows = await h.query(`SELECT * FROM "${table}" t WHERE t::text ILIKE ANY ($1)${inBytes}`, binary.length > 0 ? [patterns, names] : [patterns]);
      for (const row of rows) found.push({ table, row });
    }
    return found;
  };

  it('is proven with the password, ends every session at once, and e-mails the date', async () => {
    const { body, userId, as } = await register();
    await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.username, password: body.password }).expect(200);
    expect(await openSessions(userId)).toBe(2);

    const wrong = await h.call('post', '/api/auth/account/deletion', as).send({ password: 'not my password' }).expect(400);
    expect(wrong.body.message).toBe('Your password is not right');
    expect(await openSessions(userId)).toBe(2);
    expect(await h.query('SELECT 1 FROM account_deletions WHERE user_id = $1', [userId])).toHaveLength(0);

    const before = Date.now();
    const asked = await h.call('post', '/api/auth/account/deletion', as).send({ password: body.password }).expect(202);
    const purgeAfter = Date.parse(asked.body.purgeAfter as string);
    expect(purgeAfter).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
    expect(purgeAfter).toBeLessThanOrEqual(Date.now() + 30 * DAY + 1000);
    expect(await openSessions(userId)).toBe(0);
    const revoked = await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE actor_user_id = $1 AND type = 'auth.session.revoked'`, [userId]);
    expect(revoked.map((e) => fromBinary(SessionRevokedSchema, e.payload).reason)).toEqual([RevocationReason.DELETION_REQUESTED, RevocationReason.DELETION_REQUESTED]);
    // Nothing is forgotten yet: no deletion event during the grace period.
    expect(await h.query(`SELECT 1 FROM outbox WHERE type = 'auth.user.deleted' AND actor_user_id = $1`, [userId])).toHaveLength(0);

    const mail = await h.waitForMail(body.email);
    expect(mail.subject).toBe('Your Timeliner account will be deleted');
    expect(mail.text).toContain('Cancel deletion');
    expect(mail.text).toContain('http://app.test/login');
  });

  it('signing in during the grace period offers to cancel; cancelling keeps the account and signs in', async () => {
    const { body, userId, as } = await register();
    const asked = await h.call('post', '/api/auth/account/deletion', as).send({ password: body.password }).expect(202);

    // A wrong password is the usual answer: nothing says the account is waiting to be deleted.
    const wrong = await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.email, password: 'wrong password' }).expect(401);
    expect(wrong.body.message).toBe('Invalid email/username or password');

    const offer = await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.email, password: body.password }).expect(202);
    expect(offer.body.session).toBeUndefined();
    expect(offer.body.deletionPending.purgeAfter).toBe(asked.body.purgeAfter);
    expect(offer.body.deletionPending.message).toMatch(/^Your account is scheduled to be deleted on \d{1,2} [A-Z][a-z]+ \d{4}\. Cancel the deletion to keep your account and sign in\.$/);
    expect(await openSessions(userId)).toBe(0);

    // The newest offer is the one that works.
    const second = await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.username, password: body.password }).expect(202);
    expect((await h.call('post', '/api/auth/account/deletion/cancel', { ip: ip() }).send({ token: offer.body.deletionPending.token }).expect(401)).body.message).toBe(EXPIRED);

    const cancelled = await h.call('post', '/api/auth/account/deletion/cancel', { ip: ip() }).send({ token: second.body.deletionPending.token }).expect(200);
    expect(cancelled.body.user.id).toBe(userId);
    expect(cancelled.body.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await openSessions(userId)).toBe(1);
    expect(await h.query('SELECT 1 FROM account_deletions WHERE user_id = $1', [userId])).toHaveLength(0);
    // Used once.
    await h.call('post', '/api/auth/account/deletion/cancel', { ip: ip() }).send({ token: second.body.deletionPending.token }).expect(401);
    // Signing in is as before, and the purge leaves the account alone.
    await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.username, password: body.password }).expect(200);
    await purger().purgeDue(new Date(Date.now() + 31 * DAY));
    expect(await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).toHaveLength(1);
    expect((await h.waitForMail(body.email, 2)).subject).toBe('Your Timeliner account will not be deleted');
  });

  it('a token expires after ten minutes', async () => {
    const { body, userId, as } = await register();
    await h.call('post', '/api/auth/account/deletion', as).send({ password: body.password }).expect(202);
    const offer = await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.username, password: body.password }).expect(202);
    await h.query(`UPDATE account_deletions SET cancel_token_expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
    expect((await h.call('post', '/api/auth/account/deletion/cancel', { ip: ip() }).send({ token: offer.body.deletionPending.token }).expect(401)).body.message).toBe(EXPIRED);
    expect(await h.query('SELECT 1 FROM account_deletions WHERE user_id = $1', [userId])).toHaveLength(1);
  });

  it('after the grace period the account goes for good, with UserDeleted, and nothing of it stays', async () => {
    const { body, userId, as } = await register();
    const other = await register();
    // Rows of several kinds that name the person.
    await h.call('put', '/api/auth/preferences', as).send({ alwaysShowSensitive: true }).expect(200);
    await h.call('post', '/api/auth/login', { ip: '203.0.113.250' }).send({ login: body.username, password: 'wrong password' }).expect(401);
    await h.call('post', '/api/auth/account/deletion', as).send({ password: body.password }).expect(202);

    // Not yet due: nothing happens.
    const deletions = await published('auth.user.deleted');
    expect(await purger().purgeDue(new Date(Date.now() + 29 * DAY))).toBe(0);
    expect(await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).toHaveLength(1);

    expect(await purger().purgeDue(new Date(Date.now() + 30 * DAY + 60_000))).toBeGreaterThanOrEqual(1);
    await until(() => deletions.of(userId).length === 1, 'UserDeleted to go out');
    expect(fromBinary(UserDeletedSchema, deletions.of(userId)[0]!.data)).toMatchObject({ userId, username: body.username.toLowerCase(), email: body.email.toLowerCase() });
    // An hour later it goes out once more (for what late events wrote elsewhere), and its last trace here goes.
    expect(await h.query('SELECT 1 FROM purged_accounts WHERE user_id = $1', [userId])).toHaveLength(1);
    await purger().purgeDue(new Date(Date.now() + 30 * DAY + 2 * 3600_000));
    await until(() => deletions.of(userId).length === 2, 'the second UserDeleted to go out');
    await deletions.close();

    // No row of any table of the service names the person, the outbox included: once the events
    // naming them are sent (and this service has heard its UserDeleted back), the relay erases them.
    const names = [userId, body.username, body.email];
    await until(async () => (await rowsNaming(names)).length === 0, 'the rows naming the person to go').catch(() => undefined);
    expect(await rowsNaming(names)).toEqual([]);
    // Signing in finds no such account; the other person is untouched.
    expect((await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: body.username, password: body.password }).expect(401)).body.message).toBe('Invalid email/username or password');
    await h.call('post', '/api/auth/login', { ip: ip() }).send({ login: other.body.username, password: other.body.password }).expect(200);
    // A second purge finds nothing.
    expect(await purger().purgeDue(new Date(Date.now() + 31 * DAY))).toBe(0);
  });

  it('the operator deletes an account at once (a legal request): its open sessions end, UserDeleted goes out', async () => {
    const admin = (...args: string[]) =>
      promisify(execFile)(process.execPath, [path.join(root, 'scripts/admin.mjs'), ...args], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: h.db.url, LOG_LEVEL: 'silent' } }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    const { body, userId, as } = await register();
    expect(await openSessions(userId)).toBe(1);
    const revocations = await published('auth.session.revoked');
    const deletions = await published('auth.user.deleted');

    // Without --yes nothing happens.
    const asked = await admin('delete-account', body.username);
    expect(asked.code).toBe(1);
    expect(asked.out).toContain('Run it again with --yes to go ahead.');
    expect(await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).toHaveLength(1);
    expect((await admin('delete-account', 'nobody_by_that_name', '--yes')).out).toContain('No account named "nobody_by_that_name".');

    const done = await admin('delete-account', `@${body.username.toUpperCase()}`, '--yes');
    expect(done).toEqual({ code: 0, out: expect.stringContaining(`Deleted the account ${body.username} (${userId}) for good.`) });
    expect(await h.query('SELECT 1 FROM users WHERE id = $1', [userId])).toHaveLength(0);
    expect(await h.query('SELECT 1 FROM sessions WHERE user_id = $1', [userId])).toHaveLength(0);
    // The relay of the running service publishes them: its session's end, then UserDeleted.
    await until(() => deletions.of(userId).length === 1, 'UserDeleted to go out');
    expect(revocations.of(userId).map((m) => fromBinary(SessionRevokedSchema, m.data))).toEqual([expect.objectContaining({ sessionId: as.sessionId, reason: RevocationReason.ACCOUNT_DELETED })]);
    expect(fromBinary(UserDeletedSchema, deletions.of(userId)[0]!.data)).toMatchObject({ userId, username: body.username.toLowerCase(), email: body.email.toLowerCase() });
    await revocations.close();
    await deletions.close();
    // Once sent, they leave the outbox too.
    await until(async () => (await h.query(`SELECT 1 FROM outbox WHERE actor_user_id = $1`, [userId])).length === 0, 'the outbox rows naming the person to go');
  }, 120_000);
});
