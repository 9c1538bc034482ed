import { timestampDate } from '@bufbuild/protobuf/wkt';
import { idOf, on } from '@timeliner/platform';
import { AuthEvents, SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';

/** Keeps a decision over an older one only. */
async function keep(manager: EntityManager, type: 'timeline' | 'account' | 'account_deletion', id: string, hidden: boolean, until: Date | null, version: bigint): Promise<void> {
  await manager.query(
    `INSERT INTO moderation_hidden (subject_type, subject_id, hidden, until, version) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (subject_type, subject_id) DO UPDATE SET hidden = $3, until = $4, version = $5 WHERE moderation_hidden.version < $5`,
    [type, id, hidden, until, version.toString()],
  );
}

/**
 * The moderation desk's decisions in search: a hidden timeline leaves every result, and so does a
 * suspended account with its timelines, until the suspension ends or is lifted. An account waiting
 * to be deleted (auth's AccountDeletionChanged, its own kind `account_deletion`) leaves them the
 * same way until the deletion is cancelled.
 */
export const moderationEventHandlers = [
  on(SocialEvents.ContentModerated, async (change, _meta, manager) => {
    const id = idOf(change.contentId);
    if (!id || change.contentType !== 'timeline' || change.version <= 0n) return;
    await keep(manager, 'timeline', id, change.hidden, null, change.version);
  }),
  on(SocialEvents.AccountSuspensionChanged, async (change, _meta, manager) => {
    const id = idOf(change.userId);
    if (!id || change.version <= 0n) return;
    await keep(manager, 'account', id, change.active, change.until ? timestampDate(change.until) : null, change.version);
  }),
  on(AuthEvents.AccountDeletionChanged, async (change, _meta, manager) => {
    const id = idOf(change.userId);
    if (!id || change.version <= 0n) return;
    await keep(manager, 'account_deletion', id, change.pending, null, change.version);
  }),
];

/** An account not suspended now, nor waiting to be deleted (SQL of its id). */
export const accountNotSuspendedSql = (userId: string): string =>
  `NOT EXISTS (SELECT 1 FROM moderation_hidden mh WHERE mh.subject_type IN ('account', 'account_deletion') AND mh.subject_id = ${userId} AND mh.hidden AND (mh.until IS NULL OR mh.until > now()))`;

/** A timeline the moderators left in search: not hidden, its creator not suspended (alias `t`). */
export const timelineKeptByModeratorsSql = (t = 't'): string =>
  `NOT EXISTS (SELECT 1 FROM moderation_hidden mh WHERE mh.subject_type = 'timeline' AND mh.subject_id = ${t}.id AND mh.hidden) AND ${accountNotSuspendedSql(`${t}.creator_id`)}`;
