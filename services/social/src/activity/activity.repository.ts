import type { DataSource } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { authorNotSuspended, shownByModerators } from '../read-rules/moderation-filters.js';
import type { ActivityMetadata, ActivityTargetType, ActivityType } from './activity.entity.js';

export interface ActivityRow {
  id: string;
  userId: string;
  activityType: ActivityType;
  targetType: ActivityTargetType;
  targetId: string;
  metadata: ActivityMetadata;
  createdAt: Date;
  /** The title and username as the read models know them now; null when gone. */
  currentTitle: string | null;
  currentUsername: string | null;
  key: [createdAt: string, id: string];
}

interface RawRow extends Omit<ActivityRow, 'key'> {
  createdKey: string;
}

/**
 * Reads a person's activities, newest first (activities_user_created_idx). `everything` is for
 * the person themselves; anyone else sees only activities about timelines that are public and
 * published in feed_timelines (and every follow): a like of a private, unlisted, draft or
 * unknown timeline is left out, not shown as a hole; so is one about a timeline the moderators hid
 * or a suspended person (the timeline's creator, the person followed), and all of a suspended
 * person's activity.
 */
export class ActivityRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(userId: string, everything: boolean, limit: number, after?: CursorKey): Promise<ActivityRow[]> {
    const params: unknown[] = [userId, limit];
    let condition = 'a.user_id = $1';
    if (!everything) {
      condition += ` AND (a.target_type <> 'timeline' OR (t.visibility = 'public' AND t.status = 'published'))`;
      // Nothing about what the moderators hid or by a suspended person; no suspended person followed; nothing while the person is suspended.
      condition += ` AND (a.target_type <> 'timeline' OR ${shownByModerators('timeline', 't.id', 't.creator_id')})`;
      condition += ` AND (a.target_type <> 'user' OR ${authorNotSuspended('a.target_id')}) AND ${authorNotSuspended('a.user_id')}`;
    }
    if (after) {
      params.push(after[0], after[1]);
      condition += ' AND (a.created_at, a.id) < ($3::timestamptz, $4::uuid)';
    }
    const rows = (await this.dataSource.query(
      `SELECT a.id, a.user_id AS "userId", a.activity_type AS "activityType", a.target_type AS "targetType", a.target_id AS "targetId",
              a.metadata, a.created_at AS "createdAt", ${cursorTimestamp('a.created_at')} AS "createdKey",
              t.title AS "currentTitle", u.username AS "currentUsername"
         FROM activities a
         LEFT JOIN feed_timelines t ON t.id = a.timeline_id
         LEFT JOIN users u ON a.target_type = 'user' AND u.id = a.target_id
        WHERE ${condition}
        ORDER BY a.created_at DESC, a.id DESC
        LIMIT $2`,
      params,
    )) as RawRow[];
    return rows.map(({ createdKey, ...row }) => ({ ...row, key: [createdKey, row.id] }));
  }
}
