import { randomUUID } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { createEventBus, type EventBus, serveRpc, type Subscription } from '@timeliner/platform';
import { deleteBusStreams, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { AuthEvents, AuthRpc, RevocationReason } from '@timeliner/proto';
import { tokenHash } from '../../src/sessions/bearer-token.js';

export type BusKind = 'nats' | 'in-process';
export const BUS_KINDS: BusKind[] = ['nats', 'in-process'];

/**
 * Two handles on one bus: the gateway's, and the one the fake services use. With NATS they are
 * separate connections, as in production; in-process they share the bus of their prefix.
 */
export interface TestBus {
  gateway: EventBus;
  services: EventBus;
  close(): Promise<void>;
}

export async function openTestBus(kind: BusKind, label: string): Promise<TestBus> {
  const prefix = testBusPrefix(label);
  const natsUrl = kind === 'nats' ? testNatsUrl() : undefined;
  const gateway = await createEventBus({ natsUrl, prefix, name: 'gateway-test' });
  const services = await createEventBus({ natsUrl, prefix, name: 'services-test' });
  return {
    gateway,
    services,
    async close() {
      await gateway.close();
      await services.close();
      if (natsUrl) await deleteBusStreams(natsUrl, prefix);
    },
  };
}

export interface FakeSession {
  token: string;
  userId: string;
  sessionId: string;
}

/** The auth service's side of `AuthRpc.VerifySession`, over sessions the test creates. */
export class FakeAuthResponder {
  calls = 0;
  private readonly sessions = new Map<string, FakeSession>();
  private subscription: Subscription | undefined;

  constructor(private readonly bus: EventBus) {}

  async start(): Promise<this> {
    this.subscription = await serveRpc(this.bus, AuthRpc.VerifySession, 'auth', async ({ tokenHash: hash }) => {
      this.calls++;
      const session = this.sessions.get(hash);
      return session
        ? { valid: true, userId: session.userId, sessionId: session.sessionId, expiresAt: timestampFromMs(Date.now() + 3_600_000) }
        : { valid: false };
    });
    return this;
  }

  async stop(): Promise<void> {
    await this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  /** A new session, of a new person or of `userId` (a second device). */
  signIn(userId: string = randomUUID()): FakeSession {
    const session = { token: randomUUID() + randomUUID(), userId, sessionId: randomUUID() };
    this.sessions.set(tokenHash(session.token), session);
    return session;
  }

  /** Ends a session at the auth service only, as if its revocation event had not arrived yet. */
  forget(session: FakeSession): void {
    this.sessions.delete(tokenHash(session.token));
  }

  /** Ends a session as the auth service does: the row is revoked and the event published. */
  async revoke(session: FakeSession): Promise<void> {
    this.sessions.delete(tokenHash(session.token));
    const schema = AuthEvents.SessionRevoked.schema;
    await this.bus.publish({
      subject: AuthEvents.SessionRevoked.subject,
      meta: { id: randomUUID(), type: AuthEvents.SessionRevoked.type, version: AuthEvents.SessionRevoked.version, occurredAt: new Date().toISOString() },
      data: toBinary(schema, create(schema, { sessionId: session.sessionId, userId: session.userId, tokenHash: tokenHash(session.token), reason: RevocationReason.LOGOUT })),
    });
  }
}

/** Retries an assertion until it passes or the time is up. */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
