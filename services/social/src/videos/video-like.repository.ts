import type { DataSource, EntityManager } from 'typeorm';

/**
 * video_likes (who likes a video) and the versioned count on the video's row. A toggle locks the
 * video row first, so concurrent toggles (and the video's deletion) are serialised and versions
 * follow commit order.
 */
export class VideoLikeRepository {
  constructor(private readonly dataSource: DataSource) {}

  async isLiked(videoId: string, userId: string | undefined): Promise<boolean> {
    if (!userId) return false;
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM video_likes WHERE video_id = $1 AND user_id = $2', [videoId, userId]);
    return rows.length > 0;
  }

  /**
   * Adds or removes the caller's like of a video whose row the transaction holds. Null when it
   * was already so; otherwise the count after the change and its version.
   */
  async set(manager: EntityManager, videoId: string, userId: string, active: boolean): Promise<{ count: number; version: bigint } | null> {
    // Wrapped in CTEs so the driver answers with the returned rows for inserts and deletes alike.
    const changed: unknown[] = await manager.query(
      active
        ? 'WITH r AS (INSERT INTO video_likes (video_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1) SELECT * FROM r'
        : 'WITH r AS (DELETE FROM video_likes WHERE video_id = $1 AND user_id = $2 RETURNING 1) SELECT * FROM r',
      [videoId, userId],
    );
    if (changed.length === 0) return null;
    const [counted] = (await manager.query(
      `WITH v AS (UPDATE videos SET likes_count = greatest(likes_count + $2::int, 0), count_version = nextval('count_version_seq')
                   WHERE id = $1 RETURNING likes_count AS count, count_version::text AS version)
       SELECT * FROM v`,
      [videoId, active ? 1 : -1],
    )) as Array<{ count: number; version: string }>;
    return { count: counted!.count, version: BigInt(counted!.version) };
  }
}
