/**
 * The activity score the feed orders timelines and posts by:
 *
 *   activityScore = 1·log2(1 + views) + 2·log2(1 + likes) + 3·log2(1 + comments) + 1·log2(1 + videos)
 *                 + (lastActivityAt − 2025-01-01T00:00Z) / 2 days
 *
 * The log terms reward engagement with diminishing returns (the thousandth view counts less than
 * the tenth), comments more than likes, likes more than views. The last term is the freshness
 * decay: an item whose last activity is two days older needs one more point, that is twice the
 * weighted engagement, to rank level. It is written against a fixed epoch rather than "hours since
 * last activity, as of now" so a stored score never goes stale: ordering by
 * `engagement − age / 2 days` and by `engagement + lastActivityAt / 2 days` is the same order,
 * since "now" is common to every item. So the score is recomputed only when one of its inputs
 * changes (a view, a like, a comment, new content), never on a timer.
 *
 * A post has no views and no videos: its terms are likes, comments and freshness.
 *
 * Feed order (spec 000 section 9) is "higher score first where scores differ by more than 0.1,
 * else newest activity first". That rule is not transitive (0.0 < 0.08 < 0.16 but 0.0 and 0.16
 * differ by more), so no database can sort or page by it. We sort by
 * (floor(score × 10), lastActivityAt, id), all descending: scores more than 0.1 apart always fall
 * in different bands and keep the score order; close scores in the same band order by activity.
 * The band is stored (`score_band`) so the feed is one index scan and keyset-pageable.
 */
export const SCORE_WEIGHTS = { views: 1, likes: 2, comments: 3, videos: 1 } as const;
export const SCORE_EPOCH = new Date('2025-01-01T00:00:00Z');
export const FRESHNESS_DAYS_PER_POINT = 2;

export interface ScoreInputs {
  views?: number;
  likesCount: number;
  commentsCount: number;
  videoCount?: number;
  lastActivityAt: Date;
}

const log2p = (n: number) => Math.log2(1 + Math.max(0, n));

export function activityScore(t: ScoreInputs): number {
  const engagement =
    SCORE_WEIGHTS.views * log2p(t.views ?? 0) +
    SCORE_WEIGHTS.likes * log2p(t.likesCount) +
    SCORE_WEIGHTS.comments * log2p(t.commentsCount) +
    SCORE_WEIGHTS.videos * log2p(t.videoCount ?? 0);
  const freshness = (t.lastActivityAt.getTime() - SCORE_EPOCH.getTime()) / (FRESHNESS_DAYS_PER_POINT * 86_400_000);
  return engagement + freshness;
}

export const scoreBand = (score: number): number => Math.floor(score * 10);

const log2pSql = (column: string) => `ln(1 + greatest(${column}, 0)::float8) / ln(2)`;

/**
 * The same formula in SQL. Each input is a SQL expression (a column, a constant); `lastActivityAt`
 * is a timestamptz expression.
 */
export function activityScoreSql(inputs: { views?: string; likes: string; comments: string; videos?: string; lastActivityAt: string }): string {
  return `(${SCORE_WEIGHTS.views} * ${log2pSql(inputs.views ?? '0')}
    + ${SCORE_WEIGHTS.likes} * ${log2pSql(inputs.likes)}
    + ${SCORE_WEIGHTS.comments} * ${log2pSql(inputs.comments)}
    + ${SCORE_WEIGHTS.videos} * ${log2pSql(inputs.videos ?? '0')}
    + extract(epoch from (${inputs.lastActivityAt} - timestamptz '${SCORE_EPOCH.toISOString()}')) / ${FRESHNESS_DAYS_PER_POINT * 86_400})`;
}
