import { ForbiddenException } from '@nestjs/common';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { clipCodePoints, idOf, on } from '@timeliner/platform';
import { RevocationReason, SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { SessionRevoker } from '../sessions/session-revoker.js';

/** "until 5 December 2026" or "for good". */
const untilPhrase = (until: Date | null): string =>
  until ? `until ${until.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}` : 'for good';

/**
 * Refuses to open a session for an account while moderators have it suspended: 403 with the
 * reason and the end date, so the person knows why and until when.
 */
export async function refuseIfSuspended(manager: EntityManager, userId: string): Promise<void> {
  const [row] = (await manager.query(
    `SELECT until, reason FROM account_suspensions WHERE user_id = $1 AND active AND (until IS NULL OR until > now())`,
    [userId],
  )) as Array<{ until: Date | null; reason: string }>;
  if (row) throw new ForbiddenException(`Your account is suspended ${untilPhrase(row.until)}. Reason: ${row.reason}`);
}

/**
 * Suspensions from the social service's moderation desk: kept by version (a redelivered or
 * overtaken event never undoes a newer decision); a suspension ends every session of the account
 * at once (each announced, so every gateway drops it).
 */
export const suspensionEventHandlers = (revoker: SessionRevoker) => [
  on(SocialEvents.AccountSuspensionChanged, async (change, meta, manager) => {
    const userId = idOf(change.userId);
    if (!userId || change.version <= 0n) return;
    const until = change.until ? timestampDate(change.until) : null;
    const [applied] = (await manager.query(
      `INSERT INTO account_suspensions (user_id, active, until, reason, version) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id) DO UPDATE SET active = $2, until = $3, reason = $4, version = $5 WHERE account_suspensions.version < $5
       RETURNING 1`,
      [userId, change.active, until, clipCodePoints(change.reason, 1000), change.version.toString()],
    )) as unknown[];
    if (!applied || !change.active) return;
    await revoker.revoke(manager, { userId }, RevocationReason.ACCOUNT_SUSPENDED, { actorUserId: meta.actorUserId ?? userId, ...(meta.requestId ? { requestId: meta.requestId } : {}) });
  }),
];
