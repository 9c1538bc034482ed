import type { DataSource, EntityManager } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { shownByModerators } from '../read-rules/moderation-filters.js';
import { seenDespitePrivacySql } from '../private-accounts/private-account-sql.js';
import type { UserRecord } from '../users/user.entity.js';
import { commenterFacts, commentRulesOf, type ControlledItem } from '../comment-rules/comment-gate.js';
import { heldCountOf } from '../comment-rules/comment-announcements.js';
import type { CommentRules } from '../comment-rules/comment-rules.js';

/** The kinds of comment: on a whole timeline, on one of its videos (or a reply there), on a post. */
export type CommentKind = 'timeline' | 'video' | 'post';

/** One comment as the controls need it, whatever its kind. */
export interface ControlledComment {
  kind: CommentKind;
  id: string;
  /** The timeline, video or post it is on. */
  targetId: string;
  /** Its timeline (a timeline or video comment); null for a post's. */
  timelineId: string | null;
  parentId: string | null;
  userId: string;
  userName: string;
  content: string;
  /** Seconds into the timeline (timeline comments; 0 otherwise). */
  timestamp: number;
  held: boolean;
  pinnedAt: Date | null;
  createdAt: Date;
  author: Pick<UserRecord, 'displayName' | 'username' | 'avatar'> | null;
  key: CursorKey;
}

interface RawComment {
  kind: CommentKind;
  id: string;
  target_id: string;
  timeline_id: string | null;
  parent_id: string | null;
  user_id: string;
  user_name: string;
  content: string;
  timestamp: number;
  held: boolean;
  pinned_at: Date | null;
  created_at: Date;
  created_key: string;
  author_username: string | null;
  author_display_name: string | null;
  author_avatar: string | null;
}

/** Each kind's rows in one shape (`kind, id, target_id, ...`), without the author. */
const ROWS: Record<CommentKind, string> = {
  timeline: `SELECT 'timeline'::text AS kind, id, timeline_id AS target_id, timeline_id, NULL::uuid AS parent_id, user_id, user_name, content, timestamp, held, pinned_at, created_at FROM timeline_comments`,
  video: `SELECT 'video'::text AS kind, id, video_id AS target_id, timeline_id, parent_id, user_id, user_name, content, 0 AS timestamp, held, pinned_at, created_at FROM video_comments`,
  post: `SELECT 'post'::text AS kind, id, post_id AS target_id, NULL::uuid AS timeline_id, NULL::uuid AS parent_id, user_id, user_name, content, 0 AS timestamp, held, pinned_at, created_at FROM post_comments`,
};

const TABLE: Record<CommentKind, { table: string; target: string }> = {
  timeline: { table: 'timeline_comments', target: 'timeline_id' },
  video: { table: 'video_comments', target: 'video_id' },
  post: { table: 'post_comments', target: 'post_id' },
};

const withAuthor = (rows: string) => `
  SELECT c.*, ${cursorTimestamp('c.created_at')} AS created_key,
         u.username AS author_username, u.display_name AS author_display_name, u.avatar AS author_avatar
    FROM (${rows}) c LEFT JOIN users u ON u.id = c.user_id`;

const toComment = (raw: RawComment): ControlledComment => ({
  kind: raw.kind,
  id: raw.id,
  targetId: raw.target_id,
  timelineId: raw.timeline_id,
  parentId: raw.parent_id,
  userId: raw.user_id,
  userName: raw.user_name,
  content: raw.content,
  timestamp: raw.timestamp,
  held: raw.held,
  pinnedAt: raw.pinned_at,
  createdAt: raw.created_at,
  author: raw.author_username === null ? null : { username: raw.author_username, displayName: raw.author_display_name ?? '', avatar: raw.author_avatar },
  key: [raw.created_key, raw.id],
});

/**
 * comment_settings, and what the moderators of an item do to the comments on it: the approval
 * queue (held comments, oldest first), approving, pinning and deleting, across the three kinds
 * of comment.
 */
export class CommentControlsRepository {
  constructor(private readonly dataSource: DataSource) {}

  rules(item: ControlledItem): Promise<CommentRules> {
    return commentRulesOf(this.dataSource.manager, item);
  }

  commenter(userId: string, ownerId: string): Promise<{ follower: boolean; registeredAt: Date | null }> {
    return commenterFacts(this.dataSource.manager, userId, ownerId);
  }

  async saveRules(manager: EntityManager, item: ControlledItem, rules: CommentRules): Promise<void> {
    await manager.query(
      `INSERT INTO comment_settings (target_type, target_id, who_may_comment, hold_all, held_words, hold_new_accounts_days, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (target_type, target_id) DO UPDATE SET who_may_comment = EXCLUDED.who_may_comment, hold_all = EXCLUDED.hold_all,
         held_words = EXCLUDED.held_words, hold_new_accounts_days = EXCLUDED.hold_new_accounts_days, updated_at = now()`,
      [item.type, item.id, rules.whoMayComment, rules.holdAll, rules.heldWords, rules.holdNewAccountsDays],
    );
  }

  heldCount(item: ControlledItem): Promise<number> {
    return heldCountOf(this.dataSource.manager, item);
  }

  /** The item's held comments (a timeline's: on it and on its videos), oldest first, after the key. */
  async held(item: ControlledItem, limit: number, after?: CursorKey): Promise<ControlledComment[]> {
    const rows = item.type === 'post' ? `${ROWS.post} WHERE post_id = $1 AND held` : `${ROWS.timeline} WHERE timeline_id = $1 AND held UNION ALL ${ROWS.video} WHERE timeline_id = $1 AND held`;
    const raw: RawComment[] = await this.dataSource.query(
      `${withAuthor(rows)}
        WHERE ($3::timestamptz IS NULL OR (c.created_at, c.id) > ($3::timestamptz, $4::uuid))
        ORDER BY c.created_at, c.id LIMIT $2`,
      [item.id, limit, after?.[0] ?? null, after?.[1] ?? null],
    );
    return raw.map(toComment);
  }

  /** A comment of this kind on this timeline, video or post, locked for the transaction; null when there is none. */
  async lock(manager: EntityManager, kind: CommentKind, targetId: string, id: string): Promise<ControlledComment | null> {
    const { table, target } = TABLE[kind];
    const locked: unknown[] = await manager.query(`SELECT 1 FROM ${table} WHERE id = $1 AND ${target} = $2 FOR UPDATE`, [id, targetId]);
    if (locked.length === 0) return null;
    const [raw] = (await manager.query(`${withAuthor(`${ROWS[kind]} WHERE id = $1`)}`, [id])) as RawComment[];
    return raw ? toComment(raw) : null;
  }

  /** The comment is approved: shown to everyone from now on. */
  async approve(manager: EntityManager, kind: CommentKind, id: string): Promise<void> {
    await manager.query(`UPDATE ${TABLE[kind].table} SET held = false WHERE id = $1`, [id]);
  }

  /** A video reply approved: its thread counts it. */
  async countReply(manager: EntityManager, parentId: string): Promise<void> {
    await manager.query('UPDATE video_comments SET replies_count = replies_count + 1 WHERE id = $1', [parentId]);
  }

  /** Pins the comment on its timeline, video or post, unpinning the one pinned before. */
  async pin(manager: EntityManager, kind: CommentKind, targetId: string, id: string): Promise<void> {
    const { table, target } = TABLE[kind];
    await manager.query(`UPDATE ${table} SET pinned_at = NULL WHERE ${target} = $1 AND pinned_at IS NOT NULL AND id <> $2`, [targetId, id]);
    await manager.query(`UPDATE ${table} SET pinned_at = now() WHERE id = $1 AND pinned_at IS NULL`, [id]);
  }

  async unpin(manager: EntityManager, kind: CommentKind, id: string): Promise<void> {
    await manager.query(`UPDATE ${TABLE[kind].table} SET pinned_at = NULL WHERE id = $1`, [id]);
  }

  /** Deletes a timeline's or a post's comment (video comments have their own, with replies). */
  async delete(manager: EntityManager, kind: 'timeline' | 'post', id: string): Promise<void> {
    await manager.query(`DELETE FROM ${TABLE[kind].table} WHERE id = $1`, [id]);
  }

  /** The post's author, with the post row locked; null when there is no such post. */
  async lockPost(manager: EntityManager, postId: string): Promise<{ userId: string } | null> {
    const [row] = (await manager.query('SELECT user_id AS "userId" FROM posts WHERE id = $1 FOR UPDATE', [postId])) as Array<{ userId: string }>;
    return row ?? null;
  }

  /** The post's author; null when there is no such post. */
  /**
   * The post's author, when the caller may see the post: null for none, and for one as absent to
   * them as a deleted one (a private account's to a non-follower; one the moderators hid, or by a
   * suspended person, to anyone but its author).
   */
  async postAuthor(postId: string, callerId: string | undefined): Promise<string | null> {
    const [row] = (await this.dataSource.query(
      `SELECT p.user_id AS "userId" FROM posts p WHERE p.id = $1
          AND (p.user_id = $2::uuid OR ${shownByModerators('post', 'p.id', 'p.user_id')}) AND ${seenDespitePrivacySql('$2::uuid', 'p.user_id')}`,
      [postId, callerId ?? null],
    )) as Array<{ userId: string }>;
    return row?.userId ?? null;
  }
}
