import { type Timestamp, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { SessionRepository } from './session.repository.js';

export interface VerifiedSession {
  valid: boolean;
  userId: string;
  sessionId: string;
  expiresAt?: Timestamp;
}

const INVALID: VerifiedSession = { valid: false, userId: '', sessionId: '' };

/** Touching `last_used_at` on every request would turn reads into writes; once in a while is enough. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/**
 * Answers the gateway's "who holds this token?" question. Given only the token's hash, so the
 * token itself never crosses the bus.
 */
export class SessionVerifier {
  constructor(private readonly sessions: SessionRepository) {}

  async verify(tokenHash: string): Promise<VerifiedSession> {
    if (!/^[0-9a-f]{64}$/.test(tokenHash)) return INVALID;
    const session = await this.sessions.findOpenByTokenHash(tokenHash);
    if (!session) return INVALID;
    if (!session.lastUsedAt || Date.now() - session.lastUsedAt.getTime() > TOUCH_EVERY_MS) await this.sessions.touch(session.id);
    return { valid: true, userId: session.userId, sessionId: session.id, expiresAt: timestampFromDate(session.expiresAt) };
  }

  /** Expired and long-revoked sessions are deleted daily-ish by the service. */
  prune(): Promise<number> {
    return this.sessions.deleteStale();
  }
}
