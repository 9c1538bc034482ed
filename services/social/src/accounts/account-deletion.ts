import { applyAccountDeletionChanged, idOf, mutedWordPattern, on, type EventWriter, requestOutboxErasure } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { isDeletedAccount } from '../users/deleted-users.js';
import { forgetAccount } from './account-events.js';

/** What the moderators' records keep of a deleted person's words: this, in their place. */
export const REMOVED_WITH_ACCOUNT = '(removed with the account)';

/** What of the person's own a deleted account's posts, comments, likes, bookmarks and collections are, each taken back as the person would (so counts go down with the usual events). */
export interface PersonUndo {
  deletePost(userId: string, postId: string): Promise<void>;
  deletePostComment(userId: string, postId: string, commentId: string): Promise<void>;
  deleteTimelineComment(userId: string, timelineId: string, commentId: string): Promise<void>;
  deleteVideoComment(userId: string, videoId: string, commentId: string): Promise<void>;
  unlikePost(userId: string, postId: string): Promise<void>;
  unbookmarkPost(userId: string, postId: string): Promise<void>;
  unlikeTimeline(userId: string, timelineId: string): Promise<void>;
  unbookmarkTimeline(userId: string, timelineId: string): Promise<void>;
  unlikeVideo(userId: string, videoId: string): Promise<void>;
  deleteCollection(userId: string, collectionId: string): Promise<void>;
}

type Row = Record<string, string>;

/**
 * An account gone for good (auth's UserDeleted): everything of the person here goes. Their own
 * things are taken back one by one as they would have done it (`undo`, the HTTP services' own
 * paths), so every count they were in goes down with the usual event; then whatever is left that
 * names them goes without events (a comment on a timeline they may no longer see, say): moderation
 * records keep the decision (action, kind, times) but no longer say who nor, where the words were
 * theirs or about them, what was written (`REMOVED_WITH_ACCOUNT`); then what an account deletion
 * takes (`forgetAccount`: follows, requests, filters, activity, the people copy).
 *
 * Before that, while the deletion waits (auth's AccountDeletionChanged), the person is out of
 * everyone else's sight as a suspended account is (read-rules/moderation-filters.ts), kept in the
 * platform's moderation copy under its own kind; a cancellation brings them back. A change arriving
 * after the account was deleted is ignored.
 */
export const userDeletedHandlers = (events: EventWriter, undo: () => PersonUndo | undefined, logger: Logger) => [
  on(AuthEvents.AccountDeletionChanged, async (change, _meta, manager) => {
    const userId = idOf(change.userId);
    if (!userId || (await isDeletedAccount(manager, userId))) return;
    await applyAccountDeletionChanged(manager, change);
  }),
  on(AuthEvents.UserDeleted, async (deleted, meta, manager) => {
    const userId = idOf(deleted.userId);
    if (!userId) return;
    const taker = undo();
    // Before the HTTP side is up the event waits (redelivered), so the counts still go down.
    if (!taker) throw new Error('the social service is still starting; the account deletion is applied on redelivery');
    // The outbox rows naming the person (those the take-back below writes among them) go once sent.
    await requestOutboxErasure(manager, { userId, names: [deleted.username, deleted.email] });
    // While their content can still be told apart: the words about them in the moderators' records.
    await removeModerationText(manager, userId);
    await removeWordsNaming(manager, userId, [deleted.username, deleted.email]);
    await takeBack(manager, taker, userId, logger);
    await sweep(manager, userId);
    await forgetAccount(events, manager, userId, meta.requestId ?? meta.id);
  }),
];

async function takeBack(manager: EntityManager, undo: PersonUndo, userId: string, logger: Logger): Promise<void> {
  const rows = async (sql: string): Promise<Row[]> => (await manager.connection.query(sql, [userId])) as Row[];
  const each = async (what: string, list: Row[], step: (row: Row) => Promise<void>) => {
    for (const row of list) {
      // One that cannot be taken back this way (gone meanwhile, out of sight) goes in the sweep.
      await step(row).catch((err: unknown) => logger.debug({ err, what, userId }, 'left for the sweep'));
    }
  };
  await each('post like', await rows('SELECT post_id FROM post_likes WHERE user_id = $1'), (r) => undo.unlikePost(userId, r.post_id!));
  await each('post bookmark', await rows('SELECT post_id FROM post_bookmarks WHERE user_id = $1'), (r) => undo.unbookmarkPost(userId, r.post_id!));
  await each('timeline like', await rows('SELECT timeline_id FROM timeline_likes WHERE user_id = $1'), (r) => undo.unlikeTimeline(userId, r.timeline_id!));
  await each('timeline bookmark', await rows('SELECT timeline_id FROM timeline_bookmarks WHERE user_id = $1'), (r) => undo.unbookmarkTimeline(userId, r.timeline_id!));
  await each('video like', await rows('SELECT video_id FROM video_likes WHERE user_id = $1'), (r) => undo.unlikeVideo(userId, r.video_id!));
  await each('post comment', await rows('SELECT id, post_id FROM post_comments WHERE user_id = $1'), (r) => undo.deletePostComment(userId, r.post_id!, r.id!));
  await each('timeline comment', await rows('SELECT id, timeline_id FROM timeline_comments WHERE user_id = $1'), (r) => undo.deleteTimelineComment(userId, r.timeline_id!, r.id!));
  await each('video comment', await rows('SELECT id, video_id FROM video_comments WHERE user_id = $1 ORDER BY parent_id NULLS FIRST'), (r) => undo.deleteVideoComment(userId, r.video_id!, r.id!));
  await each('collection', await rows('SELECT id FROM collections WHERE user_id = $1'), (r) => undo.deleteCollection(userId, r.id!));
  await each('post', await rows('SELECT id FROM posts WHERE user_id = $1'), (r) => undo.deletePost(userId, r.id!));
}

/** A report (alias `r`) about something of the person's ($1): an item they wrote, or one the desk decided on as theirs. */
const reportAboutPersonSql = `(EXISTS (SELECT 1 FROM moderated_content mc WHERE mc.content_type = r.content_type AND mc.content_id = r.content_id AND mc.author_id = $1)
  OR EXISTS (SELECT 1 FROM moderation_actions a WHERE a.content_type = r.content_type AND a.content_id = r.content_id AND a.subject_user_id = $1)
  OR (r.content_type = 'post' AND EXISTS (SELECT 1 FROM posts i WHERE i.id = r.content_id AND i.user_id = $1))
  OR (r.content_type = 'post_comment' AND EXISTS (SELECT 1 FROM post_comments i WHERE i.id = r.content_id AND i.user_id = $1))
  OR (r.content_type = 'timeline_comment' AND EXISTS (SELECT 1 FROM timeline_comments i WHERE i.id = r.content_id AND i.user_id = $1))
  OR (r.content_type = 'video_comment' AND EXISTS (SELECT 1 FROM video_comments i WHERE i.id = r.content_id AND i.user_id = $1))
  OR (r.content_type = 'timeline' AND EXISTS (SELECT 1 FROM feed_timelines i WHERE i.id = r.content_id AND i.creator_id = $1))
  OR (r.content_type = 'video' AND EXISTS (SELECT 1 FROM videos v JOIN feed_timelines i ON i.id = v.timeline_id WHERE v.id = r.content_id AND i.creator_id = $1)))`;

/**
 * "Audit entries keep no personal data" (issue 29): the free text of the moderators' records about
 * the person or written by them (an entry's reason, an appeal's text as the log keeps it, a
 * report's note and the moderator's notes) becomes `REMOVED_WITH_ACCOUNT`; what was done, to what
 * kind of thing and when stays. The audit log allows this one change (migration 1768500000100).
 * Reports the person filed, and their appeals, go in the sweep.
 */
async function removeModerationText(manager: EntityManager, userId: string): Promise<void> {
  await manager.query(`UPDATE moderation_actions SET reason = $2 WHERE (subject_user_id = $1 OR moderator_id = $1) AND reason <> $2`, [userId, REMOVED_WITH_ACCOUNT]);
  await manager.query(
    `UPDATE content_reports r SET description = CASE WHEN r.description IS NULL THEN NULL ELSE $2 END, moderator_notes = CASE WHEN r.moderator_notes IS NULL THEN NULL ELSE $2 END
      WHERE ${reportAboutPersonSql}`,
    [userId, REMOVED_WITH_ACCOUNT],
  );
  await manager.query(`UPDATE content_reports SET moderator_notes = $2 WHERE moderator_id = $1 AND moderator_notes IS NOT NULL`, [userId, REMOVED_WITH_ACCOUNT]);
}

/**
 * The same for the moderators' records about other people and things whose words name the person
 * (a report's note, a decision's or a suspension's reason, an appeal: "@ada did it too"): the
 * username, e-mail address or display name, as a whole word in any case, takes the whole text
 * with it. Over-matching a short name removes a note that did not mean them: words lost, nobody named.
 */
async function removeWordsNaming(manager: EntityManager, userId: string, known: string[]): Promise<void> {
  const [person] = (await manager.query('SELECT display_name AS "displayName" FROM users WHERE id = $1', [userId])) as Array<{ displayName: string }>;
  const names = [...new Set([...known, person?.displayName ?? ''].map((n) => n.trim().toLowerCase()).filter((n) => n.length > 0))];
  if (names.length === 0) return;
  const naming = names.map((n) => `(?:${mutedWordPattern(n)})`).join('|');
  const q = (sql: string) => manager.query(sql, [naming, REMOVED_WITH_ACCOUNT]);
  await q('UPDATE moderation_actions SET reason = $2 WHERE reason ~* $1 AND reason <> $2');
  await q('UPDATE account_suspensions SET reason = $2 WHERE reason ~* $1');
  await q('UPDATE moderation_appeals SET text = $2 WHERE text ~* $1');
  await q(`UPDATE content_reports SET description = CASE WHEN description ~* $1 THEN $2 ELSE description END,
                                      moderator_notes = CASE WHEN moderator_notes ~* $1 THEN $2 ELSE moderator_notes END
            WHERE description ~* $1 OR moderator_notes ~* $1`);
}

/** Whatever still names the person goes; the moderators' records stay, saying no longer who. */
async function sweep(manager: EntityManager, userId: string): Promise<void> {
  const q = (sql: string) => manager.query(sql, [userId]);
  await q('DELETE FROM post_likes WHERE user_id = $1');
  await q('DELETE FROM post_bookmarks WHERE user_id = $1');
  await q('DELETE FROM timeline_likes WHERE user_id = $1');
  await q('DELETE FROM timeline_bookmarks WHERE user_id = $1');
  await q('DELETE FROM video_likes WHERE user_id = $1');
  await q('DELETE FROM video_comments WHERE parent_id IN (SELECT id FROM video_comments WHERE user_id = $1)');
  await q('DELETE FROM video_comments WHERE user_id = $1');
  await q('DELETE FROM timeline_comments WHERE user_id = $1');
  await q('DELETE FROM post_comments WHERE post_id IN (SELECT id FROM posts WHERE user_id = $1)');
  await q('DELETE FROM post_comments WHERE user_id = $1');
  await q('DELETE FROM collection_timelines WHERE collection_id IN (SELECT id FROM collections WHERE user_id = $1)');
  await q('DELETE FROM collections WHERE user_id = $1');
  await q('DELETE FROM post_likes WHERE post_id IN (SELECT id FROM posts WHERE user_id = $1)');
  await q('DELETE FROM post_bookmarks WHERE post_id IN (SELECT id FROM posts WHERE user_id = $1)');
  await q('DELETE FROM posts WHERE user_id = $1');
  await q('DELETE FROM staff_roles WHERE user_id = $1');
  await q('DELETE FROM account_suspensions WHERE user_id = $1');
  await q('DELETE FROM follow_counts WHERE user_id = $1');
  await q('DELETE FROM follow_request_counts WHERE user_id = $1');
  await q('DELETE FROM muted_words WHERE user_id = $1');
  await q(`DELETE FROM comment_settings WHERE target_id = $1`);
  await q('DELETE FROM content_reports WHERE reporter_id = $1');
  await q('UPDATE content_reports SET moderator_id = NULL WHERE moderator_id = $1');
  await q('UPDATE moderation_actions SET moderator_id = NULL WHERE moderator_id = $1');
  await q('UPDATE moderation_actions SET subject_user_id = NULL WHERE subject_user_id = $1');
  await q('DELETE FROM moderated_content WHERE author_id = $1');
  await q('DELETE FROM moderation_appeals WHERE author_id = $1');
  await q('DELETE FROM moderation_hidden WHERE subject_id = $1');
}
