/**
 * The block and mute rules as SQL fragments, for every read of this service to add to its WHERE
 * (named, so each read path says which rule it applies). `viewer` is the SQL of the caller's id
 * (NULL for anonymous callers: nothing then matches, nothing is hidden), `author` the column of
 * the person whose content or action it is, `text` the SQL of the content's words.
 *
 * Indexes: blocks by its primary key (blocker, blocked) and blocks_blocked_idx (blocked,
 * blocker), mutes by its primary key (muter, muted), muted_words by muted_words_user_word_key
 * (user first).
 */
import { freeOfMutedWordsSql } from '@timeliner/platform';

/** Neither of the two has blocked the other. */
export const notBlockedSql = (viewer: string, author: string): string =>
  `NOT EXISTS (SELECT 1 FROM blocks bk WHERE (bk.blocker_id = ${viewer} AND bk.blocked_id = ${author}) OR (bk.blocker_id = ${author} AND bk.blocked_id = ${viewer}))`;

/** The viewer has not muted the author. */
export const notMutedSql = (viewer: string, author: string): string => `NOT EXISTS (SELECT 1 FROM mutes mu WHERE mu.muter_id = ${viewer} AND mu.muted_id = ${author})`;

/** None of the viewer's muted words that still stand is in the text (their patterns joined a few words each, once per query). */
export { freeOfMutedWordsSql };

/** What feeds and lists of content show the viewer: no block either way, not muted, no muted word. */
export const shownInFeedsSql = (viewer: string, author: string, text: string): string =>
  `${notBlockedSql(viewer, author)} AND ${notMutedSql(viewer, author)} AND ${freeOfMutedWordsSql(viewer, text)}`;

/** A comment kept in the list but collapsed ("Hidden by your filters"): its author muted, or a muted word in it. */
export const hiddenByFiltersSql = (viewer: string, author: string, text: string): string => `NOT (${notMutedSql(viewer, author)} AND ${freeOfMutedWordsSql(viewer, text)})`;
