import type { DataSource, EntityManager } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { shownTo } from '../comment-rules/comment-gate.js';
import { commentsInContextSql } from '../read-rules/moderation-filters.js';

/** A stored comment or reply with what the users read model knows of its author. */
export interface VideoCommentRow {
  id: string;
  videoId: string;
  timelineId: string;
  parentId: string | null;
  userId: string;
  userName: string;
  content: string;
  repliesCount: number;
  likesCount: number;
  createdAt: Date;
  /** Waiting for approval (seen by its author and the timeline's moderators only). */
  held: boolean;
  pinnedAt: Date | null;
  author: { username: string; displayName: string; avatar: string | null } | null;
  /** Sort key, for the next page's cursor. */
  key: [createdAt: string, id: string];
  /** Taken out by the moderators: read by staff only (commentsInContextSql). */
  removedByModerators: boolean;
}

interface RawRow {
  id: string;
  video_id: string;
  timeline_id: string;
  parent_id: string | null;
  user_id: string;
  user_name: string;
  content: string;
  replies_count: number;
  likes_count: number;
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
  SELECT c.id, c.video_id, c.timeline_id, c.parent_id, c.user_id, c.user_name, c.content, c.replies_count, c.likes_count, c.created_at, c.held, c.pinned_at,
         c.removed_by_moderators, ${cursorTimestamp('c.created_at')} AS created_key,
         u.username AS author_username, u.display_name AS author_display_name, u.avatar AS author_avatar
    FROM ${commentsInContextSql('video_comments', 'video_comment', viewer)} c
    LEFT JOIN users u ON u.id = c.user_id`;
const SELECT = select();

const toRow = (raw: RawRow): VideoCommentRow => ({
  id: raw.id,
  videoId: raw.video_id,
  timelineId: raw.timeline_id,
  parentId: raw.parent_id,
  userId: raw.user_id,
  userName: raw.user_name,
  content: raw.content,
  repliesCount: raw.replies_count,
  likesCount: raw.likes_count,
  createdAt: raw.created_at,
  held: raw.held,
  pinnedAt: raw.pinned_at,
  author: raw.author_username === null ? null : { username: raw.author_username, displayName: raw.author_display_name ?? '', avatar: raw.author_avatar },
  key: [raw.created_key, raw.id],
  removedByModerators: raw.removed_by_moderators,
});

export interface NewVideoComment {
  id: string;
  videoId: string;
  timelineId: string;
  parentId: string | null;
  userId: string;
  userName: string;
  content: string;
  /** Waits for approval: not counted, not announced. */
  held?: boolean;
}

/** Who reads a list: their id (none when signed out) and whether they moderate the video's timeline. */
export interface VideoCommentReader {
  userId: string | undefined;
  moderator: boolean;
}

const ANYONE: VideoCommentReader = { userId: undefined, moderator: false };

/**
 * video_comments: top-level comments and their replies (one level: a reply's parent is always a
 * top-level comment), and the versioned comment count on the video's row. Writers hold the video
 * row (VideoRepository.find with lock) so counts, replies and deletions never interleave.
 */
export class VideoCommentRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `limit` top-level comments of a video after `after`, oldest first. */
  async topLevel(videoId: string, limit: number, after?: CursorKey, reader: VideoCommentReader = ANYONE): Promise<VideoCommentRow[]> {
    const params: unknown[] = [videoId, limit, reader.userId ?? null, reader.moderator];
    // The pinned comment is apart (pinned()); held ones only for their author and the moderators.
    let where = `c.video_id = $1 AND c.parent_id IS NULL AND c.pinned_at IS NULL AND ${shownTo('c', '$3', '$4')}`;
    if (after) {
      params.push(after[0], after[1]);
      where += ' AND (c.created_at, c.id) > ($5::timestamptz, $6::uuid)';
    }
    const rows: RawRow[] = await this.dataSource.query(`${select('$3')} WHERE ${where} ORDER BY c.created_at, c.id LIMIT $2`, params);
    return rows.map(toRow);
  }

  /**
   * The first `perParent` replies to each of these comments (oldest first), by one query: a
   * comment with hundreds of replies costs a list no more than one with `perParent`.
   */
  async firstReplies(videoId: string, parentIds: string[], perParent: number, reader: VideoCommentReader = ANYONE): Promise<VideoCommentRow[]> {
    if (parentIds.length === 0) return [];
    const rows: RawRow[] = await this.dataSource.query(
      `SELECT r.* FROM unnest($2::uuid[]) AS p(id)
         CROSS JOIN LATERAL (${select('$3')} WHERE c.video_id = $1 AND c.parent_id = p.id AND ${shownTo('c', '$3', '$4')} ORDER BY c.created_at, c.id LIMIT $5) r
        ORDER BY r.parent_id, r.created_at, r.id`,
      [videoId, parentIds, reader.userId ?? null, reader.moderator, perParent],
    );
    return rows.map(toRow);
  }

  /** Up to `limit` replies to one comment after `after`, oldest first. */
  async replyPage(videoId: string, parentId: string, limit: number, after?: CursorKey, reader: VideoCommentReader = ANYONE): Promise<VideoCommentRow[]> {
    const params: unknown[] = [videoId, parentId, limit, reader.userId ?? null, reader.moderator];
    let where = `c.video_id = $1 AND c.parent_id = $2 AND ${shownTo('c', '$4', '$5')}`;
    if (after) {
      params.push(after[0], after[1]);
      where += ' AND (c.created_at, c.id) > ($6::timestamptz, $7::uuid)';
    }
    const rows: RawRow[] = await this.dataSource.query(`${select('$4')} WHERE ${where} ORDER BY c.created_at, c.id LIMIT $3`, params);
    return rows.map(toRow);
  }

  /** A top-level comment of the video as this reader may see it (held ones only for their author and the moderators). */
  async visibleTopLevel(videoId: string, commentId: string, reader: VideoCommentReader = ANYONE): Promise<VideoCommentRow | null> {
    const rows: RawRow[] = await this.dataSource.query(`${select('$3')} WHERE c.id = $1 AND c.video_id = $2 AND c.parent_id IS NULL AND ${shownTo('c', '$3', '$4')}`, [
      commentId,
      videoId,
      reader.userId ?? null,
      reader.moderator,
    ]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** The video's pinned comment, if any (pinned comments are never held). */
  async pinned(videoId: string): Promise<VideoCommentRow | null> {
    const rows: RawRow[] = await this.dataSource.query(`${SELECT} WHERE c.video_id = $1 AND c.parent_id IS NULL AND c.pinned_at IS NOT NULL`, [videoId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  async find(manager: EntityManager, videoId: string, commentId: string): Promise<VideoCommentRow | null> {
    const rows: RawRow[] = await manager.query(`${SELECT} WHERE c.id = $1 AND c.video_id = $2`, [commentId, videoId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  async insert(manager: EntityManager, comment: NewVideoComment): Promise<VideoCommentRow> {
    await manager.query(
      'INSERT INTO video_comments (id, video_id, timeline_id, parent_id, user_id, user_name, content, held) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [comment.id, comment.videoId, comment.timelineId, comment.parentId, comment.userId, comment.userName, comment.content, comment.held ?? false],
    );
    // A held reply is counted once it is approved.
    if (comment.parentId && !comment.held) await manager.query('UPDATE video_comments SET replies_count = replies_count + 1 WHERE id = $1', [comment.parentId]);
    return (await this.find(manager, comment.videoId, comment.id))!;
  }

  /** Deletes a comment and, for a top-level one, its replies; how many counted (not held) rows went. */
  async delete(manager: EntityManager, comment: VideoCommentRow): Promise<number> {
    const gone: unknown[] = await manager.query(
      'WITH gone AS (DELETE FROM video_comments WHERE id = $1 OR parent_id = $1 RETURNING held) SELECT * FROM gone WHERE NOT held',
      [comment.id],
    );
    if (comment.parentId && !comment.held) await manager.query('UPDATE video_comments SET replies_count = greatest(replies_count - 1, 0) WHERE id = $1', [comment.parentId]);
    return gone.length;
  }

  /** Changes the video's comment count (replies included) by `delta`; the new count and version. */
  async count(manager: EntityManager, videoId: string, delta: number): Promise<{ count: number; version: bigint }> {
    const [row] = (await manager.query(
      `WITH v AS (UPDATE videos SET comments_count = greatest(comments_count + $2::int, 0), count_version = nextval('count_version_seq')
                   WHERE id = $1 RETURNING comments_count AS count, count_version::text AS version)
       SELECT * FROM v`,
      [videoId, delta],
    )) as Array<{ count: number; version: string }>;
    return { count: row!.count, version: BigInt(row!.version) };
  }
}
