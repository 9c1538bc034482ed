import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { deleteBusStreams, testNatsUrl } from '@timeliner/platform/testing';
import { AccountSuspensionChangedSchema, RevocationReason, SessionRevokedSchema, SocialEvents } from '@timeliner/proto';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const waitFor = async (check: () => Promise<boolean>, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Suspensions from the moderation desk, on real Postgres and NATS: sessions end at once, sign-in is refused with why and until when. */
describe('account suspensions', () => {
  let h: AuthHarness;
  let version = 0n;
  const suspend = async (userId: string, change: { active: boolean; until?: Date; reason?: string; version?: bigint }) => {
    version += 1n;
    await h.bus.publish({
      subject: SocialEvents.AccountSuspensionChanged.subject,
      meta: { id: randomUUID(), type: SocialEvents.AccountSuspensionChanged.type, version: 1, occurredAt: new Date().toISOString() },
      data: toBinary(AccountSuspensionChangedSchema, create(AccountSuspensionChangedSchema, {
        actionId: randomUUID(), userId, active: change.active, reason: change.reason ?? '', version: change.version ?? version, at: timestampFromDate(new Date()),
        ...(change.until ? { until: timestampFromDate(change.until) } : {}),
      })),
    });
  };

  beforeAll(async () => {
    h = await startHarness('suspensions', { nats: true });
  }, 30_000);
  afterAll(async () => {
    const prefix = h.prefix;
    await h.close();
    await deleteBusStreams(testNatsUrl(), prefix);
  });

  it('ends every session at once, refuses sign-in with the reason and the end date, and signs in again once lifted', async () => {
    const person = newUser();
    const registered = (await h.call('post', '/api/auth/register').send(person).expect(201)).body;
    const userId = registered.user.id as string;
    await h.call('post', '/api/auth/login').send({ login: person.username, password: person.password }).expect(200);
    const open = async () => Number((await h.query<{ n: string }>(`SELECT count(*) AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, [userId]))[0]!.n);
    expect(await open()).toBe(2);

    await suspend(userId, { active: true, until: new Date('2027-03-05T12:00:00Z'), reason: 'Repeated spam' });
    await waitFor(async () => (await open()) === 0);
    const revoked = (await h.query<{ payload: Buffer }>(`SELECT payload FROM outbox WHERE type = 'auth.session.revoked'`)).map((r) => fromBinary(SessionRevokedSchema, r.payload)).filter((e) => e.userId === userId);
    expect(revoked).toHaveLength(2);
    expect(revoked.every((e) => e.reason === RevocationReason.ACCOUNT_SUSPENDED)).toBe(true);

    const refused = await h.call('post', '/api/auth/login').send({ login: person.username, password: person.password });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your account is suspended until 5 March 2027. Reason: Repeated spam');
    // A wrong password says nothing about the suspension.
    expect((await h.call('post', '/api/auth/login').send({ login: person.username, password: 'wrong horse!' })).status).toBe(401);

    // An older event (redelivered, overtaken) never undoes the newer decision.
    await suspend(userId, { active: false, version: 1n });
    await new Promise((r) => setTimeout(r, 500));
    expect((await h.call('post', '/api/auth/login').send({ login: person.username, password: person.password })).status).toBe(403);

    await suspend(userId, { active: false, reason: 'Served' });
    await waitFor(async () => (await h.call('post', '/api/auth/login').send({ login: person.username, password: person.password })).status === 200);
  }, 60_000);

  it('for good: says so', async () => {
    const person = newUser();
    const userId = (await h.call('post', '/api/auth/register').send(person).expect(201)).body.user.id as string;
    await suspend(userId, { active: true, reason: 'Threats' });
    await waitFor(async () => (await h.call('post', '/api/auth/login').send({ login: person.username, password: person.password })).status === 403);
    expect((await h.call('post', '/api/auth/login').send({ login: person.username, password: person.password })).body.message).toBe('Your account is suspended for good. Reason: Threats');
  }, 30_000);
});
