import type { EntityManager } from 'typeorm';
import type { EventWriter } from '@timeliner/platform';
import { AuthEvents, type RevocationReason } from '@timeliner/proto';
import type { RevokeWhich, SessionRepository } from './session.repository.js';

export type { RevokeWhich } from './session.repository.js';

/**
 * Ends sessions of one person in the caller's transaction and announces each with
 * `AuthEvents.SessionRevoked` (through the outbox), which every gateway replica hears at once and
 * drops from its cache.
 */
export class SessionRevoker {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly events: EventWriter,
  ) {}

  /** Answers how many were ended. */
  async revoke(manager: EntityManager, which: RevokeWhich, reason: RevocationReason, meta: { actorUserId: string; requestId?: string | undefined }): Promise<number> {
    const ended = await this.sessions.revoke(manager, which);
    for (const session of ended) {
      await this.events.add(manager, AuthEvents.SessionRevoked, { sessionId: session.id, userId: which.userId, tokenHash: session.tokenHash, reason }, {
        actorUserId: meta.actorUserId,
        ...(meta.requestId ? { requestId: meta.requestId } : {}),
      });
    }
    return ended.length;
  }
}
