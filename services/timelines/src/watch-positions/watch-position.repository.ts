import type { DataSource } from 'typeorm';
import { WatchPosition } from './watch-position.entity.js';

/** People's places in timelines. */
export class WatchPositionRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(userId: string, timelineId: string): Promise<WatchPosition | null> {
    return this.dataSource.getRepository(WatchPosition).findOneBy({ userId, timelineId });
  }

  /** Saves the place, replacing the one before; answers the row as stored. */
  async save(userId: string, timelineId: string, itemId: string, seconds: number): Promise<WatchPosition> {
    const rows: Array<{ user_id: string; timeline_id: string; item_id: string; seconds: number; updated_at: Date }> = await this.dataSource.query(
      `INSERT INTO watch_positions (user_id, timeline_id, item_id, seconds, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (user_id, timeline_id) DO UPDATE SET item_id = EXCLUDED.item_id, seconds = EXCLUDED.seconds, updated_at = now()
       RETURNING user_id, timeline_id, item_id, seconds, updated_at`,
      [userId, timelineId, itemId, seconds],
    );
    const row = rows[0]!;
    return Object.assign(new WatchPosition(), { userId: row.user_id, timelineId: row.timeline_id, itemId: row.item_id, seconds: row.seconds, updatedAt: row.updated_at });
  }

  async clear(userId: string, timelineId: string): Promise<void> {
    await this.dataSource.getRepository(WatchPosition).delete({ userId, timelineId });
  }
}
