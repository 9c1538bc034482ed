import type { DataSource } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';

export interface BookmarkRow {
  type: 'post' | 'timeline';
  id: string;
  bookmarkedAt: Date;
  /** (created_at as cursor text, id): the key of the newest-first list. */
  key: CursorKey;
}

const before = `($3::timestamptz IS NULL OR (b.created_at, b.ITEM) < ($3::timestamptz, $4::uuid))`;

/** A person's bookmarks of posts and of timelines, as one list, newest first (each through its (user_id, created_at) index). */
export class BookmarkRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(userId: string, limit: number, after?: CursorKey): Promise<BookmarkRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT type, id, at AS "bookmarkedAt", ${cursorTimestamp('at')} AS "keyAt" FROM (
         (SELECT 'post' AS type, b.post_id AS id, b.created_at AS at FROM post_bookmarks b
           WHERE b.user_id = $1 AND ${before.replace('ITEM', 'post_id')}
           ORDER BY b.created_at DESC, b.post_id DESC LIMIT $2)
         UNION ALL
         (SELECT 'timeline', b.timeline_id, b.created_at FROM timeline_bookmarks b
           WHERE b.user_id = $1 AND ${before.replace('ITEM', 'timeline_id')}
           ORDER BY b.created_at DESC, b.timeline_id DESC LIMIT $2)) saved
        ORDER BY at DESC, id DESC LIMIT $2`,
      [userId, limit, after?.[0] ?? null, after?.[1] ?? null],
    )) as Array<Omit<BookmarkRow, 'key'> & { keyAt: string }>;
    return rows.map(({ keyAt, ...row }) => ({ ...row, key: [keyAt, row.id] }));
  }
}
