import { readOnly } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import { TIMELINE_COLUMNS, type HashtagHit, type TimelineHit } from '../search/search.repository.js';
import { notPrivateUserSql, publicCreatorSql, publicHashtagUsesSql } from '../users/private-account-sql.js';
import { timelineShownSql } from '../search/search-filters.js';

/** Days of engagement "popular" looks back on, and the half-life of a day's weight. */
export const POPULAR_WINDOW_DAYS = 7;
export const POPULAR_HALF_LIFE_DAYS = 2;
/** Timelines considered for "popular" from each source (recent engagement, overall popularity). */
const POPULAR_CANDIDATES = 500;
/** The first places of "popular" hold one timeline per creator (the search page shows 12). */
export const POPULAR_DISTINCT_CREATORS = 12;

export interface TrendingRule {
  /** Distinct people using a tag in the last 24 hours from which it is taking off (tier 1 of `trending`). */
  minUsers: number;
  /** Days before today that make a tag's usual rate. */
  baselineDays: number;
}

export const TRENDING_RULE: TrendingRule = { minUsers: 3, baselineDays: 7 };

export class DiscoverRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Listed timelines by the engagement they gained lately, each day's counting half as much every
   * two days; overall popularity breaks ties and fills in when little happened. The first
   * `POPULAR_DISTINCT_CREATORS` places go to as many different creators, each with their best
   * timeline; only when that many creators are in the list do others follow (anyone's next ones,
   * in the same order). With fewer creators, the list is one timeline per creator.
   */
  async popular(limit: number, viewerId: string | null = null): Promise<TimelineHit[]> {
    return (await readOnly(this.dataSource).query(
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
         FROM candidates c JOIN timelines t ON t.id = c.id AND t.listed AND ${publicCreatorSql('t')} AND ${timelineShownSql('$6::uuid')} LEFT JOIN recent r ON r.id = c.id
       ), firsts AS (
         SELECT id, row_number() OVER (ORDER BY score DESC, popularity DESC, id) AS place FROM ranked WHERE nth = 1
       ), placed AS (
         SELECT r.id, r.score, r.popularity, coalesce(f.place <= $5, false) AS head FROM ranked r LEFT JOIN firsts f ON f.id = r.id
       )
       SELECT ${TIMELINE_COLUMNS}
       FROM placed p JOIN timelines t ON t.id = p.id LEFT JOIN users u ON u.id = t.creator_id
       WHERE p.head OR (SELECT count(*) FROM firsts) >= $5
       ORDER BY p.head DESC, p.score DESC, p.popularity DESC, t.id
       LIMIT $4`,
      [POPULAR_WINDOW_DAYS, POPULAR_HALF_LIFE_DAYS, POPULAR_CANDIDATES, limit, POPULAR_DISTINCT_CREATORS, viewerId],
    )) as TimelineHit[];
  }

  /**
   * The hashtags to show as trending, three tiers, each ranked within:
   *
   * 1. taking off: used by at least `minUsers` distinct people in the last 24 hours, ranked by
   *    that number against the tag's usual daily number of people over the days before, so a tag
   *    everyone always uses does not crowd out one that is taking off;
   * 2. used in the last 24 hours by fewer people: by how many people (one account posting a tag
   *    twenty times is one person, below any tag two people use);
   * 3. the tags most in use (listed timelines and posts using them now).
   *
   * A product where few people tag things still shows what is in use, and one account cannot put
   * a tag above tags more people use.
   */
  async trending(limit: number, rule: TrendingRule = TRENDING_RULE): Promise<HashtagHit[]> {
    return (await readOnly(this.dataSource).query(
      `WITH today AS (
         SELECT hashtag AS name, count(DISTINCT user_id) AS users
         FROM hashtag_uses WHERE used_at > now() - interval '1 day' AND ${notPrivateUserSql('user_id')}
         GROUP BY hashtag
       ), rising AS (
         SELECT name, users FROM today WHERE users >= $1
       ), usual AS (
         SELECT u.hashtag AS name, count(DISTINCT (u.user_id, date_trunc('day', u.used_at)))::float / $2::int AS daily
         FROM hashtag_uses u JOIN rising r ON r.name = u.hashtag
         WHERE u.used_at > now() - make_interval(days => $2::int + 1) AND u.used_at <= now() - interval '1 day' AND ${notPrivateUserSql('u.user_id')}
         GROUP BY u.hashtag
       ), ranked AS (
         SELECT r.name, 1 AS tier, r.users / (1 + coalesce(usual.daily, 0)) AS score, r.users FROM rising r LEFT JOIN usual USING (name)
         UNION ALL
         SELECT name, 2, users, users FROM today WHERE users < $1
         UNION ALL
         (SELECT name, 3, 0, 0 FROM hashtags ORDER BY usage_count DESC, name DESC LIMIT $3)
       ), best AS (
         SELECT DISTINCT ON (name) name, tier, score, users FROM ranked ORDER BY name, tier
       )
       SELECT h.name, ${publicHashtagUsesSql('h')} AS "usageCount"
       FROM best JOIN hashtags h ON h.name = best.name
       WHERE ${publicHashtagUsesSql('h')} > 0
       ORDER BY best.tier, best.score DESC, best.users DESC, h.usage_count DESC, h.name
       LIMIT $3`,
      [rule.minUsers, rule.baselineDays, limit],
    )) as HashtagHit[];
  }

  /** Engagement older than the window is never read again. */
  async pruneEngagement(): Promise<void> {
    await this.dataSource.query(`DELETE FROM timeline_engagement WHERE day <= current_date - $1::int`, [POPULAR_WINDOW_DAYS]);
  }
}
