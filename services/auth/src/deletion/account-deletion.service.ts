import { UnauthorizedException } from '@nestjs/common';
import type { EventWriter, SignedInCaller, Transactions } from '@timeliner/platform';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { AuthEvents, RevocationReason } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { AccountMail } from '../account/account-mail.js';
import { hashToken, newToken } from '../security/tokens.js';
import type { SessionRevoker } from '../sessions/session-revoker.js';
import type { IdentityProof, Proof } from '../two-step/identity-proof.js';
import type { UserRepository } from '../users/user.repository.js';
import { AccountDeletionRepository } from './account-deletion.repository.js';
import { DELETION_GRACE_DAYS, type DeletionPendingDto, type DeletionRequestedDto, deletionPendingMessage } from './account-deletion.dto.js';
import { purgeAccount, sweepPurged } from './account-purge.js';

const DAY = 24 * 60 * 60 * 1000;
const CANCEL_TOKEN_TTL_MS = 10 * 60 * 1000;

/**
 * A sign-in that would open a session for an account waiting to be deleted answers this instead:
 * a token that cancels the deletion (and then signs in), with the date everything goes.
 */
export async function offerCancelIfPending(manager: EntityManager, userId: string): Promise<DeletionPendingDto | null> {
  const deletions = new AccountDeletionRepository();
  const pending = await deletions.find(manager, userId);
  if (!pending) return null;
  const token = newToken();
  await deletions.offerCancel(manager, userId, hashToken(token), new Date(Date.now() + CANCEL_TOKEN_TTL_MS));
  return { deletionPending: { token, purgeAfter: pending.purgeAfter.toISOString(), message: deletionPendingMessage(pending.purgeAfter) } };
}

/**
 * Tells every read model that the account's deletion is pending (the person leaves everyone
 * else's sight, as a suspended account does) or was cancelled (back in sight), in the caller's
 * transaction, versioned in commit order (account_deletion_version_seq).
 */
export async function announceDeletion(manager: EntityManager, events: EventWriter, userId: string, pending: boolean, requestId: string | undefined, taken?: bigint): Promise<void> {
  const version = taken ?? (await new AccountDeletionRepository().nextVersion(manager));
  await events.add(manager, AuthEvents.AccountDeletionChanged, { userId, pending, version, at: timestampNow() }, { actorUserId: userId, ...(requestId ? { requestId } : {}) });
}

/** Cancels the deletion a sign-in's token was given for: the account's id, or 401 when the token is unknown, used or expired. */
export async function cancelPendingDeletion(manager: EntityManager, events: EventWriter, token: string, expired: string, requestId: string | undefined): Promise<string> {
  const userId = await new AccountDeletionRepository().cancel(manager, hashToken(token));
  if (!userId) throw new UnauthorizedException(expired);
  await announceDeletion(manager, events, userId, false, requestId);
  return userId;
}

/**
 * Deleting one's account (issue 29 item 7): asked for with the password or a passkey, every
 * session ends at once and the person leaves everyone else's sight (AccountDeletionChanged), and after a grace period of 30 days (in which signing in offers to cancel)
 * the account and everything naming the person goes (`purgeAccount`, then every service applies
 * `UserDeleted`).
 */
export class AccountDeletionService {
  private readonly deletions = new AccountDeletionRepository();

  constructor(
    private readonly transactions: Transactions,
    private readonly users: UserRepository,
    private readonly revoker: SessionRevoker,
    private readonly proof: IdentityProof,
    private readonly events: EventWriter,
    private readonly mail: AccountMail,
    private readonly logger: Logger,
    private readonly graceMs = DELETION_GRACE_DAYS * DAY,
  ) {}

  async request(caller: SignedInCaller, proof: Proof, requestOrigin: string | undefined): Promise<DeletionRequestedDto> {
    await this.proof.check(caller, proof, requestOrigin);
    const user = await this.users.findById(caller.userId);
    if (!user) throw new UnauthorizedException('Authentication required');
    const purgeAfter = await this.transactions.run(async (manager) => {
      const version = await this.deletions.nextVersion(manager);
      const date = await this.deletions.request(manager, user.id, new Date(Date.now() + this.graceMs), version);
      await this.revoker.revoke(manager, { userId: user.id }, RevocationReason.DELETION_REQUESTED, { actorUserId: user.id, requestId: caller.requestId });
      await announceDeletion(manager, this.events, user.id, true, caller.requestId, version);
      return date;
    });
    void this.mail.deletionRequested(user.email, user.displayName, purgeAfter, this.mail.link('/login', requestOrigin));
    return { purgeAfter: purgeAfter.toISOString() };
  }

  /**
   * Purges every account whose grace period has ended by `now`, and sends the second UserDeleted
   * of those purged an hour before; answers how many were purged.
   */
  async purgeDue(now = new Date()): Promise<number> {
    await this.transactions.run((manager) => sweepPurged(manager, this.events, now));
    let purged = 0;
    for (;;) {
      const due = await this.transactions.run((manager) => this.deletions.due(manager, now));
      if (due.length === 0) return purged;
      for (const userId of due) {
        const gone = await this.transactions.run(async (manager) => {
          // Under the account's lock: a cancellation that came first wins.
          if (!(await this.deletions.lockIfDue(manager, userId, now))) return false;
          await purgeAccount(manager, this.events, userId, { requestId: `account-purge:${userId}` });
          return true;
        });
        if (gone) {
          purged += 1;
          this.logger.info({ userId }, 'deleted an account at the end of its grace period');
        }
      }
    }
  }
}
