import type { DataSource } from 'typeorm';
import { TIMELINE_COLUMNS, type HashtagHit, type TimelineHit } from '../search/search.repository.js';

/** Days of engagement "popular" looks back on, and the half-life of a day's weight. */
export const POPULAR_WINDOW_DAYS = 7;
export const POPULAR_HALF_LIFE_DAYS = 2;
/** Timelines considered for "popular" from each source (recent engagement, overall popularity). */
const POPULAR_CANDIDATES = 500;

export interface TrendingRule {
  /** Distinct people using a tag in the last 24 hours below which it cannot trend. */
  minUsers: number;
  /** Days before today that make a tag's usual rate. */
  baselineDays: number;
}

export const TRENDING_RULE: TrendingRule = { minUsers: 3, baselineDays: 7 };

export class DiscoverRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Listed timelines by the engagement they gained lately, each day's counting half as much every
   * two days; overall popularity breaks ties and fills in when little happened. Each creator's
   * best timeline comes before anyone's second, so the first page is one per creator as long as
   * there are enough creators.
   */
  async popular(limit: number): Promise<TimelineHit[]> {
    return (await this.dataSource.query(
      `WITH recent AS (
         SELECT e.timeline_id AS id, sum(e.engagement * power(0.5, (current_date - e.day) / $2::float)) AS score
         FROM timeline_engagement e JOIN timelines t ON t.id = e.timeline_id AND t.listed
         WHERE e.day > current_date - $1::int
         GROUP BY e.timeline_id ORDER BY score DESC LIMIT $3
       ), candidates AS (
         SELECT id FROM recent
         UNION
         (SELECT id FROM timelines WHERE listed ORDER BY popularity DESC, id LIMIT $3)
       ), ranked AS (
         SELECT t.id, coalesce(r.score, 0) AS score, t.popularity,
                row_number() OVER (PARTITION BY t.creator_id ORDER BY coalesce(r.score, 0) DESC, t.popularity DESC, t.id) AS nth
         FROM candidates c JOIN timelines t ON t.id = c.id AND t.listed LEFT JOIN recent r ON r.id = c.id
       )
       SELECT ${TIMELINE_COLUMNS}
       FROM ranked p JOIN timelines t ON t.id = p.id LEFT JOIN users u ON u.id = t.creator_id
       ORDER BY p.nth > 1, p.score DESC, p.popularity DESC, t.id
       LIMIT $4`,
      [POPULAR_WINDOW_DAYS, POPULAR_HALF_LIFE_DAYS, POPULAR_CANDIDATES, limit],
    )) as TimelineHit[];
  }

  /**
   * Hashtags used by at least `minUsers` distinct people in the last 24 hours, ranked by that
   * number against the tag's usual daily number of people over the days before, so a tag everyone
   * always uses does not crowd out one that is taking off, and one account cannot make a trend.
   */
  async trending(limit: number, rule: TrendingRule = TRENDING_RULE): Promise<HashtagHit[]> {
    return (await this.dataSource.query(
      `WITH today AS (
         SELECT hashtag, count(DISTINCT user_id) AS users
         FROM hashtag_uses WHERE used_at > now() - interval '1 day'
         GROUP BY hashtag HAVING count(DISTINCT user_id) >= $1
       ), usual AS (
         SELECT u.hashtag, count(DISTINCT (u.user_id, date_trunc('day', u.used_at)))::float / $2::int AS daily
         FROM hashtag_uses u JOIN today USING (hashtag)
         WHERE u.used_at > now() - make_interval(days => $2::int + 1) AND u.used_at <= now() - interval '1 day'
         GROUP BY u.hashtag
       )
       SELECT h.name, h.usage_count AS "usageCount"
       FROM today JOIN hashtags h ON h.name = today.hashtag LEFT JOIN usual ON usual.hashtag = today.hashtag
       ORDER BY today.users / (1 + coalesce(usual.daily, 0)) DESC, today.users DESC, h.usage_count DESC, h.name
       LIMIT $3`,
      [rule.minUsers, rule.baselineDays, limit],
    )) as HashtagHit[];
  }

  /** Engagement older than the window is never read again. */
  async pruneEngagement(): Promise<void> {
    await this.dataSource.query(`DELETE FROM timeline_engagement WHERE day <= current_date - $1::int`, [POPULAR_WINDOW_DAYS]);
  }
}
