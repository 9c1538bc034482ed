import { copyDeletionPendingSql } from '@timeliner/platform';

/**
 * What the moderation desk takes out of every read of this service: an item moderators hid, and
 * everything by an account while it is suspended, or while its owner waits for it to be deleted
 * (auth's AccountDeletionChanged, in the moderation copy). SQL fragments to add to a read's WHERE
 * clause, next to the other filters of that read.
 */

/** True for an item that is shown: not hidden by moderators, its author not suspended now. */
export const shownByModerators = (contentType: 'post' | 'post_comment' | 'timeline_comment' | 'video_comment' | 'timeline' | 'video', id: string, authorId: string): string =>
  `NOT EXISTS (SELECT 1 FROM moderated_content mc WHERE mc.content_type = '${contentType}' AND mc.content_id = ${id} AND mc.hidden)
   AND ${authorNotSuspended(authorId)}`;

/** True when the account is not suspended now, nor waiting to be deleted. */
export const authorNotSuspended = (authorId: string): string =>
  `NOT EXISTS (SELECT 1 FROM account_suspensions su WHERE su.user_id = ${authorId} AND (su.until IS NULL OR su.until > now()))
   AND NOT ${copyDeletionPendingSql(authorId)}`;

/**
 * True when the person holds a staff role (moderator or admin, granted by the operator): the desk's
 * own check (moderation/, staff_roles read at each request). Staff see an item the moderators took
 * out where it is seen in context (read-only, marked), so they can review and restore it; it stays
 * out of every list and feed for them as for everyone.
 */
export const staffSql = (person: string): string => `EXISTS (SELECT 1 FROM staff_roles sr WHERE sr.user_id = ${person})`;

/**
 * Why the moderators took the item out, as the desk recorded it: the reason of the decision that
 * hid it, else that of its author's suspension now, else its author's deletion waiting; NULL when
 * it is shown. For staff only.
 */
export const takenOutReasonSql = (contentType: 'post' | 'post_comment' | 'timeline_comment' | 'video_comment', id: string, authorId: string): string =>
  `coalesce((SELECT ma.reason FROM moderated_content mc JOIN moderation_actions ma ON ma.id = mc.action_id WHERE mc.content_type = '${contentType}' AND mc.content_id = ${id} AND mc.hidden),
            (SELECT 'Its author is suspended: ' || su.reason FROM account_suspensions su WHERE su.user_id = ${authorId} AND (su.until IS NULL OR su.until > now())),
            CASE WHEN ${copyDeletionPendingSql(authorId)} THEN 'Its author asked for their account to be deleted' END)`;

/**
 * The comments of `table` (alias `c`, its author `c.user_id`) a comment list reads, with
 * `removed_by_moderators`: those the moderators left shown; and, when the reader (`viewer`, the SQL
 * of their id) is staff, those they took out too, marked, so staff review a comment in its list.
 */
export const commentsInContextSql = (table: string, contentType: 'post_comment' | 'timeline_comment' | 'video_comment', viewer?: string): string => {
  const shown = `(${shownByModerators(contentType, 'c.id', 'c.user_id')})`;
  return `(SELECT c.*, NOT ${shown} AS removed_by_moderators FROM ${table} c WHERE ${shown}${viewer ? ` OR ${staffSql(`${viewer}::uuid`)}` : ''})`;
};
