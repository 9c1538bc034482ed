import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { type BusMessage, requestRpc } from '@timeliner/platform';
import { deleteBusStreams, testNatsUrl } from '@timeliner/platform/testing';
import { AuthEvents, AuthRpc, RevocationReason, SessionRevokedSchema, UserRegisteredSchema } from '@timeliner/proto';
import { type AuthHarness, newUser, startHarness } from './harness.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The auth service on the real NATS: the gateway's session check and the events it publishes. */
describe('auth service on NATS', () => {
  let h: AuthHarness;
  const seen: BusMessage[] = [];

  beforeAll(async () => {
    h = await startHarness('authbus', { nats: true });
    await h.bus.subscribe('auth.>', (m) => void seen.push(m));
  });
  afterAll(async () => {
    const prefix = h.prefix;
    await h.close();
    await deleteBusStreams(testNatsUrl(), prefix);
  });

  const waitFor = async (predicate: () => boolean, ms = 5_000) => {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('verifies a session by token hash, and not after logout', async () => {
    const res = await h.call('post', '/api/auth/register').send(newUser()).expect(201);
    const token: string = res.body.session.token;
    const valid = await requestRpc(h.bus, AuthRpc.VerifySession, { tokenHash: sha256(token) }, { timeoutMs: 2_000 });
    expect(valid).toMatchObject({ valid: true, userId: res.body.user.id });
    expect(timestampDate(valid.expiresAt!).toISOString()).toBe(res.body.session.expiresAt);

    await h.call('post', '/api/auth/logout', { userId: valid.userId, sessionId: valid.sessionId }).expect(204);
    const after = await requestRpc(h.bus, AuthRpc.VerifySession, { tokenHash: sha256(token) }, { timeoutMs: 2_000 });
    expect(after.valid).toBe(false);

    const unknown = await requestRpc(h.bus, AuthRpc.VerifySession, { tokenHash: sha256('made-up') }, { timeoutMs: 2_000 });
    expect(unknown.valid).toBe(false);
    const malformed = await requestRpc(h.bus, AuthRpc.VerifySession, { tokenHash: "' OR 1=1 --" }, { timeoutMs: 2_000 });
    expect(malformed.valid).toBe(false);
  });

  it('looks a user up by e-mail, trimmed and in any case, for other services', async () => {
    const body = newUser();
    const res = await h.call('post', '/api/auth/register').send(body).expect(201);
    const found = await requestRpc(h.bus, AuthRpc.LookupUser, { email: `  ${body.email.toUpperCase()} ` }, { timeoutMs: 2_000 });
    expect(found).toMatchObject({ found: true, userId: res.body.user.id, username: body.username, displayName: body.displayName });

    for (const email of ['nobody-here@example.com', '', '   ', `${'a'.repeat(300)}@example.com`, "' OR 1=1 --"]) {
      const missing = await requestRpc(h.bus, AuthRpc.LookupUser, { email }, { timeoutMs: 2_000 });
      expect(missing).toMatchObject({ found: false, userId: '', username: '', displayName: '' });
    }
  });

  it('publishes UserRegistered and SessionRevoked through the outbox, with metadata', async () => {
    const res = await h.call('post', '/api/auth/register').send(newUser()).expect(201);
    const userId: string = res.body.user.id;
    const token: string = res.body.session.token;
    await waitFor(() => seen.some((m) => m.subject === AuthEvents.UserRegistered.subject && m.meta.actorUserId === userId));
    const registered = seen.find((m) => m.meta.actorUserId === userId)!;
    expect(registered.meta).toMatchObject({ type: 'auth.user.registered', version: 1, id: expect.stringMatching(/^[0-9a-f-]{36}$/), requestId: expect.stringMatching(/^test-/) });
    expect(fromBinary(UserRegisteredSchema, registered.data)).toMatchObject({ userId, username: res.body.user.username, email: res.body.user.email });

    const session = await requestRpc(h.bus, AuthRpc.VerifySession, { tokenHash: sha256(token) });
    await h.call('post', '/api/auth/logout', { userId, sessionId: session.sessionId }).expect(204);
    await waitFor(() => seen.some((m) => m.subject === AuthEvents.SessionRevoked.subject && m.meta.actorUserId === userId));
    const revoked = fromBinary(SessionRevokedSchema, seen.find((m) => m.subject === AuthEvents.SessionRevoked.subject && m.meta.actorUserId === userId)!.data);
    expect(revoked).toMatchObject({ userId, sessionId: session.sessionId, tokenHash: sha256(token), reason: RevocationReason.LOGOUT });

    // The relay marks a row dispatched once NATS has taken it, so the mark may follow the message by a moment.
    const pending = async () => Number((await h.query<{ pending: string }>('SELECT count(*) AS pending FROM outbox WHERE dispatched_at IS NULL'))[0]?.pending);
    const deadline = Date.now() + 5_000;
    while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await pending()).toBe(0);
  });
});
