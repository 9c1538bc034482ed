import { NotFoundException } from '@nestjs/common';
import { isUuid, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { RevocationReason } from '@timeliner/proto';
import type { SessionRevoker } from './session-revoker.js';
import type { SessionRepository } from './session.repository.js';
import { mapSession, type SessionInfoDto, type SignedOutSessionsDto } from './sessions.dto.js';

/** A person's own sessions: the list, and ending one or all the others. */
export class SessionsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly sessions: SessionRepository,
    private readonly revoker: SessionRevoker,
  ) {}

  async list(caller: SignedInCaller): Promise<SessionInfoDto[]> {
    return (await this.sessions.listOpen(caller.userId, caller.sessionId)).map((row) => mapSession(row, caller.sessionId));
  }

  /** Ends one of the caller's sessions (their own current one too, which is signing out); another person's is 404. */
  async revoke(caller: SignedInCaller, sessionId: string): Promise<void> {
    if (!isUuid(sessionId)) throw new NotFoundException('Session not found');
    const ended = await this.transactions.run(async (manager) => {
      if (!(await this.sessions.isOpen(manager, sessionId, caller.userId))) return 0;
      return this.revoker.revoke(manager, { userId: caller.userId, sessionId }, RevocationReason.LOGOUT, { actorUserId: caller.userId, requestId: caller.requestId });
    });
    if (ended === 0) throw new NotFoundException('Session not found');
  }

  async revokeOthers(caller: SignedInCaller): Promise<SignedOutSessionsDto> {
    const signedOutSessions = await this.transactions.run((manager) =>
      this.revoker.revoke(manager, { userId: caller.userId, exceptSessionId: caller.sessionId }, RevocationReason.LOGOUT, {
        actorUserId: caller.userId,
        requestId: caller.requestId,
      }),
    );
    return { signedOutSessions };
  }
}
