import { timestampMs } from '@bufbuild/protobuf/wkt';
import { type EventBus, requestRpc } from '@timeliner/platform';
import { AuthRpc } from '@timeliner/proto';

/** A session the auth service vouched for. */
export interface VerifiedSession {
  userId: string;
  sessionId: string;
  /** Epoch ms; Infinity when the auth service gave no expiry. */
  expiresAt: number;
}

/** The auth service could not say whether a token is valid (down, slow, failing). */
export class SessionCheckUnavailableError extends Error {
  constructor(options?: ErrorOptions) {
    super('Session check unavailable', options);
    this.name = 'SessionCheckUnavailableError';
  }
}

/** Asks who holds a token, by the token's hash: a session, null (invalid/expired/revoked), or SessionCheckUnavailableError. */
export interface SessionLookup {
  verify(tokenHash: string, requestId?: string): Promise<VerifiedSession | null>;
}

/** The auth service answers `AuthRpc.VerifySession` over the bus (queue group `auth`). */
export class BusSessionLookup implements SessionLookup {
  constructor(
    private readonly bus: EventBus,
    private readonly timeoutMs: number,
  ) {}

  async verify(tokenHash: string, requestId?: string): Promise<VerifiedSession | null> {
    let reply;
    try {
      reply = await requestRpc(this.bus, AuthRpc.VerifySession, { tokenHash }, { timeoutMs: this.timeoutMs, ...(requestId ? { requestId } : {}) });
    } catch (error) {
      // Timeout, no responder, a failing responder or a closed connection: none of them says the
      // token is bad, so none of them may turn the caller anonymous.
      throw new SessionCheckUnavailableError({ cause: error });
    }
    if (!reply.valid || !reply.userId || !reply.sessionId) return null;
    return {
      userId: reply.userId,
      sessionId: reply.sessionId,
      expiresAt: reply.expiresAt ? timestampMs(reply.expiresAt) : Number.POSITIVE_INFINITY,
    };
  }
}
