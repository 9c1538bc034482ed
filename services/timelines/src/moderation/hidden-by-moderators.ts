import { copyHiddenItemSql, copySuspendedSql } from '@timeliner/platform';

/**
 * SQL that is true when the moderation desk took the timeline (alias `t`: its `id` and
 * `creator_id`) out of every read (issue 28): the moderators hid it, or its creator's account is
 * suspended now. Such a timeline is as absent as a deleted one to everyone but its owner, who
 * still sees it, marked "Removed by moderators" (TimelineDto.removedByModerators); the desk shows
 * it to the moderators in context from the social service's copy.
 */
export const hiddenByModeratorsSql = (t = 't'): string => `(${copyHiddenItemSql(`'timeline'`, `${t}.id`)} OR ${copySuspendedSql(`${t}.creator_id`)})`;
