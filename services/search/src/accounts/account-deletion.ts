import { idOf, on } from '@timeliner/platform';
import { AuthEvents } from '@timeliner/proto';
import { dropHashtagUses } from '../hashtags/hashtag-uses.js';

/**
 * An account gone for good (auth's UserDeleted): its people document, its search history, its
 * hashtag uses (the tags' counts go down) and its filters go; its timelines' documents go with
 * their TimelineDeleted. A tagged post it wrote stays only as a tombstone that no longer says whose
 * (so a late PostCreated cannot bring it back, and nothing names the person).
 */
export const accountDeletionHandlers = [
  on(AuthEvents.UserDeleted, async (deleted, _meta, manager) => {
    const id = idOf(deleted.userId);
    if (!id) return;
    const q = <T = unknown>(sql: string, params: unknown[] = [id]) => manager.query(sql, params) as Promise<T>;
    const sources = await q<Array<{ source_type: 'post' | 'timeline'; source_id: string }>>('SELECT DISTINCT source_type, source_id FROM hashtag_uses WHERE user_id = $1 ORDER BY source_type, source_id');
    for (const source of sources) await dropHashtagUses(manager, source.source_type, source.source_id);
    await q(`UPDATE tagged_posts SET user_id = id, hashtags = '{}', deleted = true WHERE user_id = $1`);
    await q('DELETE FROM search_history WHERE user_id = $1');
    await q('DELETE FROM person_filters WHERE owner_id = $1 OR other_id = $1');
    await q('DELETE FROM muted_words WHERE user_id = $1');
    await q('DELETE FROM muted_word_lists WHERE user_id = $1');
    await q('DELETE FROM moderation_hidden WHERE subject_id = $1');
    await q('DELETE FROM users WHERE id = $1');
  }),
];
