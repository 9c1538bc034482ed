import type { EntityManager } from 'typeorm';
import { activityScoreSql } from '@timeliner/platform';

/** The formula is shared with the social service's posts (see @timeliner/platform's ranking). */
export { activityScore, FRESHNESS_DAYS_PER_POINT, SCORE_EPOCH, SCORE_WEIGHTS, scoreBand, type ScoreInputs } from '@timeliner/platform';

export function lastActivityAt(t: { createdAt: Date; lastContentAddedAt: Date | null; lastCommentAt: Date | null; lastLikeAt: Date | null }): Date {
  const times = [t.createdAt, t.lastContentAddedAt, t.lastCommentAt, t.lastLikeAt].filter((d): d is Date => d !== null);
  return new Date(Math.max(...times.map((d) => d.getTime())));
}

/** The formula over the row's columns and its new last activity `la`. */
const SCORE_SQL = activityScoreSql({ views: 'views', likes: 'likes_count', comments: 'comments_count', videos: 'video_count', lastActivityAt: 'la' });

/**
 * Recomputes a timeline's last activity, score and band from its stored inputs. Call it in the
 * transaction that changed an input, after the change.
 */
export async function refreshActivity(manager: EntityManager, timelineId: string): Promise<void> {
  await manager.query(
    `UPDATE timelines t
        SET last_activity_at = x.la, activity_score = x.score, score_band = floor(x.score * 10)
       FROM (SELECT id, la, ${SCORE_SQL} AS score
               FROM (SELECT *, greatest(created_at, last_content_added_at, last_comment_at, last_like_at) AS la
                       FROM timelines WHERE id = $1) AS inputs) AS x
      WHERE t.id = x.id`,
    [timelineId],
  );
}
