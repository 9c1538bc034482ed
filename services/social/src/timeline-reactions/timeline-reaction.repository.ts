import type { DataSource, EntityManager } from 'typeorm';

export type TimelineReactionKind = 'like' | 'bookmark';

const TABLES: Record<TimelineReactionKind, { rows: string; count: string }> = {
  like: { rows: 'timeline_likes', count: 'likes_count' },
  bookmark: { rows: 'timeline_bookmarks', count: 'bookmarks_count' },
};

/** A toggle that really changed something: the timeline's new count and its version. */
export interface ReactionChange {
  count: number;
  version: bigint;
}

/**
 * timeline_likes / timeline_bookmarks (who reacted) and timeline_reactions (how many, versioned).
 * The two are changed in one transaction; the counter row's lock orders concurrent toggles, so
 * versions follow commit order.
 */
export class TimelineReactionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async state(kind: TimelineReactionKind, timelineId: string, userId: string | undefined): Promise<{ active: boolean; count: number }> {
    const { rows, count } = TABLES[kind];
    const [row] = (await this.dataSource.query(
      `SELECT coalesce((SELECT ${count} FROM timeline_reactions WHERE timeline_id = $1), 0)::int AS count,
              ($2::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM ${rows} WHERE timeline_id = $1 AND user_id = $2::uuid)) AS active`,
      [timelineId, userId ?? null],
    )) as Array<{ count: number; active: boolean }>;
    return { active: row!.active, count: row!.count };
  }

  /**
   * Adds or removes the caller's reaction. Null when it was already so (nothing changed, nothing
   * to announce); otherwise the count after the change.
   */
  async set(manager: EntityManager, kind: TimelineReactionKind, timelineId: string, userId: string, active: boolean): Promise<ReactionChange | null> {
    const { rows, count } = TABLES[kind];
    // Wrapped in CTEs so the driver answers with the returned rows for inserts and deletes alike.
    const changed: unknown[] = await manager.query(
      active
        ? `WITH r AS (INSERT INTO ${rows} (timeline_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1) SELECT * FROM r`
        : `WITH r AS (DELETE FROM ${rows} WHERE timeline_id = $1 AND user_id = $2 RETURNING 1) SELECT * FROM r`,
      [timelineId, userId],
    );
    if (changed.length === 0) return null;
    const [counted] = (await manager.query(
      `INSERT INTO timeline_reactions AS t (timeline_id, ${count}, count_version)
            VALUES ($1, greatest($2::int, 0), nextval('count_version_seq'))
       ON CONFLICT (timeline_id) DO UPDATE
              SET ${count} = greatest(t.${count} + $2::int, 0), count_version = nextval('count_version_seq')
       RETURNING ${count} AS count, count_version::text AS version`,
      [timelineId, active ? 1 : -1],
    )) as Array<{ count: number; version: string }>;
    return { count: counted!.count, version: BigInt(counted!.version) };
  }

  /** A deleted timeline's likes, bookmarks and counters go with it: the reaction rows before the counter row, the order toggles take them in. */
  async forgetTimeline(manager: EntityManager, timelineId: string): Promise<void> {
    await manager.query('DELETE FROM timeline_likes WHERE timeline_id = $1', [timelineId]);
    await manager.query('DELETE FROM timeline_bookmarks WHERE timeline_id = $1', [timelineId]);
    await manager.query('DELETE FROM timeline_reactions WHERE timeline_id = $1', [timelineId]);
  }

  /** The like counts of a page of timelines in id order, after `afterId` (from the first without it): a replay's page. */
  async likesPage(afterId: string, limit: number): Promise<TimelineLikesRow[]> {
    return afterId
      ? this.dataSource.query(`${LIKES_SELECT} WHERE r.timeline_id > $1 ORDER BY r.timeline_id LIMIT $2`, [afterId, limit])
      : this.dataSource.query(`${LIKES_SELECT} ORDER BY r.timeline_id LIMIT $1`, [limit]);
  }

  /** The like counts of these timelines, those that have one. */
  likesOf(timelineIds: string[]): Promise<TimelineLikesRow[]> {
    return this.dataSource.query(`${LIKES_SELECT} WHERE r.timeline_id = ANY($1::uuid[]) ORDER BY r.timeline_id`, [timelineIds]);
  }

  async countedTimelines(): Promise<bigint> {
    const [row] = (await this.dataSource.query('SELECT count(*)::text AS n FROM timeline_reactions')) as Array<{ n: string }>;
    return BigInt(row!.n);
  }
}

/** A timeline's likes as ReactionChanged tells them (the count, its version, the latest like standing), and its comment count as the comment events tell it. */
export interface TimelineLikesRow {
  timelineId: string;
  likesCount: number;
  /** bigint, as text. */
  countVersion: string;
  lastLikeAt: Date | null;
  /** Shown comments, and the version the comment events carry for that count (bigint, as text). */
  commentsCount: number;
  commentsVersion: string;
}

const LIKES_SELECT = `SELECT r.timeline_id AS "timelineId", r.likes_count AS "likesCount", r.count_version::text AS "countVersion",
  r.comments_count AS "commentsCount", r.comments_version::text AS "commentsVersion",
  (SELECT max(l.created_at) FROM timeline_likes l WHERE l.timeline_id = r.timeline_id) AS "lastLikeAt" FROM timeline_reactions r`;
