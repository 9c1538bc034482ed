import type { DataSource, EntityManager } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { shownTo } from '../comment-rules/comment-gate.js';
import { commentsInContextSql } from '../read-rules/moderation-filters.js';
import { TimelineComment } from './timeline-comment.entity.js';

/** Who reads a list: their id (none when signed out) and whether they moderate the timeline. */
export interface CommentReader {
  userId: string | undefined;
  moderator: boolean;
}

/** A comment with what the users read model knows of its author (null when nothing yet). */
export interface CommentRow {
  comment: TimelineComment;
  author: { username: string; displayName: string; avatar: string | null } | null;
  /** Sort key of the row, for the next page's cursor. */
  key: [createdAt: string, id: string];
  /** Taken out by the moderators: read by staff only (commentsInContextSql). */
  removedByModerators: boolean;
}

interface RawRow {
  id: string;
  timeline_id: string;
  user_id: string;
  user_name: string;
  content: string;
  timestamp: number;
  created_at: Date;
  created_key: string;
  held: boolean;
  pinned_at: Date | null;
  removed_by_moderators: boolean;
  author_username: string | null;
  author_display_name: string | null;
  author_avatar: string | null;
}

/** The comments' columns; with `viewer` (the SQL of the reader's id), those taken out too when the reader is staff. */
const select = (viewer?: string) => `
  SELECT c.id, c.timeline_id, c.user_id, c.user_name, c.content, c.timestamp, c.created_at, c.held, c.pinned_at, c.removed_by_moderators,
         ${cursorTimestamp('c.created_at')} AS created_key,
         u.username AS author_username, u.display_name AS author_display_name, u.avatar AS author_avatar
    FROM ${commentsInContextSql('timeline_comments', 'timeline_comment', viewer)} c
    LEFT JOIN users u ON u.id = c.user_id`;
const SELECT = select();

const toRow = (raw: RawRow): CommentRow => ({
  comment: Object.assign(new TimelineComment(), {
    id: raw.id,
    timelineId: raw.timeline_id,
    userId: raw.user_id,
    userName: raw.user_name,
    content: raw.content,
    timestamp: raw.timestamp,
    createdAt: raw.created_at,
    held: raw.held,
    pinnedAt: raw.pinned_at,
  }),
  author: raw.author_username === null ? null : { username: raw.author_username, displayName: raw.author_display_name ?? '', avatar: raw.author_avatar },
  key: [raw.created_key, raw.id],
  removedByModerators: raw.removed_by_moderators,
});

/** The timeline_comments table and its one read path (newest first, keyset pages). */
export class TimelineCommentRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` comments of a timeline after `after` (a previous row's key), newest first: those
   * the reader may see (held ones to their author and the moderators only), the pinned one apart.
   */
  async page(timelineId: string, limit: number, after?: CursorKey, reader: CommentReader = { userId: undefined, moderator: false }): Promise<CommentRow[]> {
    const params: unknown[] = [timelineId, limit, reader.userId ?? null, reader.moderator];
    let where = `c.timeline_id = $1 AND c.pinned_at IS NULL AND ${shownTo('c', '$3', '$4')}`;
    if (after) {
      params.push(after[0], after[1]);
      where += ' AND (c.created_at, c.id) < ($5::timestamptz, $6::uuid)';
    }
    const rows: RawRow[] = await this.dataSource.query(`${select('$3')} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $2`, params);
    return rows.map(toRow);
  }

  /** The timeline's pinned comment, if any (pinned comments are never held). */
  async pinned(timelineId: string): Promise<CommentRow | null> {
    const rows: RawRow[] = await this.dataSource.query(`${SELECT} WHERE c.timeline_id = $1 AND c.pinned_at IS NOT NULL`, [timelineId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  async insert(manager: EntityManager, comment: Omit<TimelineComment, 'createdAt'>): Promise<CommentRow> {
    await manager.insert(TimelineComment, comment);
    const rows: RawRow[] = await manager.query(`${SELECT} WHERE c.id = $1`, [comment.id]);
    return toRow(rows[0]!);
  }

  /** A deleted timeline's comments go with it. */
  async forgetTimeline(manager: EntityManager, timelineId: string): Promise<void> {
    await manager.query('DELETE FROM timeline_comments WHERE timeline_id = $1', [timelineId]);
  }
}
