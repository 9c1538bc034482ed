import type { DataSource } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { shownByModerators } from '../read-rules/moderation-filters.js';
import type { UserRecord } from '../users/user.entity.js';

export interface UserTimelineRow {
  id: string;
  title: string;
  description: string;
  videoCount: number;
  duration: number;
  creatorId: string;
  creatorName: string;
  views: string;
  likesCount: number;
  commentsCount: number;
  activityScore: number;
  lastActivityAt: Date;
  createdAt: Date;
  updatedAt: Date;
  coverMediaId: string | null;
  coverAltText: string | null;
  visibility: string;
  status: string;
  liked: boolean;
  bookmarked: boolean;
  creator: Pick<UserRecord, 'displayName' | 'username' | 'avatar'> | null;
  key: [createdAt: string, id: string];
}

type RawRow = Omit<UserTimelineRow, 'creator' | 'key'> & {
  createdKey: string;
  creatorKnown: boolean;
  creatorDisplayName: string | null;
  creatorUsername: string | null;
  creatorAvatar: string | null;
};

/**
 * A person's timelines from the feed_timelines read model, newest first: all of them
 * (feed_timelines_creator_idx) or only the public published ones (the partial
 * feed_timelines_public_creator_idx), with the caller's like and bookmark state. Others than the
 * person see none the moderators hid, and none at all while the person is suspended.
 */
export class UserTimelineRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(creatorId: string, everything: boolean, callerId: string | undefined, limit: number, after?: CursorKey): Promise<UserTimelineRow[]> {
    const params: unknown[] = [creatorId, callerId ?? null, limit];
    let condition = 't.creator_id = $1';
    // Others never see what the moderators hid, nor anything of a suspended person.
    if (!everything) condition += ` AND t.visibility = 'public' AND t.status = 'published' AND ${shownByModerators('timeline', 't.id', 't.creator_id')}`;
    if (after) {
      params.push(after[0], after[1]);
      condition += ' AND (t.created_at, t.id) < ($4::timestamptz, $5::uuid)';
    }
    const rows = (await this.dataSource.query(
      `SELECT t.id, t.title, t.description, t.video_count AS "videoCount", t.duration, t.creator_id AS "creatorId", t.creator_name AS "creatorName",
              t.views, coalesce(c.likes_count, t.likes_count) AS "likesCount", t.comments_count AS "commentsCount",
              t.activity_score AS "activityScore", t.last_activity_at AS "lastActivityAt", t.created_at AS "createdAt", t.updated_at AS "updatedAt",
              t.cover_media_id AS "coverMediaId", t.cover_alt_text AS "coverAltText", t.sensitive, t.visibility, t.status, ${cursorTimestamp('t.created_at')} AS "createdKey",
              ($2::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM timeline_likes l WHERE l.timeline_id = t.id AND l.user_id = $2::uuid)) AS liked,
              ($2::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM timeline_bookmarks b WHERE b.timeline_id = t.id AND b.user_id = $2::uuid)) AS bookmarked,
              u.id IS NOT NULL AS "creatorKnown", u.display_name AS "creatorDisplayName", u.username AS "creatorUsername", u.avatar AS "creatorAvatar"
         FROM feed_timelines t
         LEFT JOIN timeline_reactions c ON c.timeline_id = t.id
         LEFT JOIN users u ON u.id = t.creator_id
        WHERE ${condition}
        ORDER BY t.created_at DESC, t.id DESC
        LIMIT $3`,
      params,
    )) as RawRow[];
    return rows.map(({ createdKey, creatorKnown, creatorDisplayName, creatorUsername, creatorAvatar, ...row }) => ({
      ...row,
      creator: creatorKnown ? { displayName: creatorDisplayName ?? '', username: creatorUsername ?? '', avatar: creatorAvatar } : null,
      key: [createdKey, row.id],
    }));
  }
}
