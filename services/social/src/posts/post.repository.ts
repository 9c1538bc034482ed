import { activityScoreSql, type CursorKey, cursorTimestamp, preparedQuery } from '@timeliner/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { shownTo } from '../comment-rules/comment-gate.js';
import { setFeedKey } from '../feed-index/feed-keys.js';
import { withdrawFromInboxes } from '../feed-index/following-inbox.js';
import { commentsInContextSql, shownByModerators, staffSql, takenOutReasonSql } from '../read-rules/moderation-filters.js';
import { seenDespitePrivacySql } from '../private-accounts/private-account-sql.js';
import type { UserRecord } from '../users/user.entity.js';
import { type PostCards, postColumns, postRowFrom, type PostRow } from './post-card.js';

const POST_COLUMNS = postColumns();

export interface PostCommentRow {
  id: string;
  postId: string;
  userId: string;
  userName: string;
  content: string;
  createdAt: Date;
  /** Waiting for the post's author to approve it. */
  held: boolean;
  pinnedAt: Date | null;
  /** Taken out by the moderators: read by staff only (commentsInContextSql). */
  removedByModerators: boolean;
  author: Pick<UserRecord, 'displayName' | 'username' | 'avatar'> | null;
  key: CursorKey;
}

/** A counter change that happened: the post's new count, its version, and its author. */
export interface PostCountChange {
  count: number;
  version: bigint;
  ownerId: string;
}

type Counter = 'likes_count' | 'comments_count' | 'bookmarks_count';

/** The post's activity score over its counters as they will be after adding `likes` and `comments`. */
const scoreAfter = (likes: string, comments: string, lastActivity: string) =>
  activityScoreSql({ likes: `likes_count + ${likes}`, comments: `comments_count + ${comments}`, lastActivityAt: lastActivity });

/** Shown by the moderators, or the caller's own (its author sees it marked removed by moderators). */
const shownOrOwn = `(p.user_id = $1::uuid OR ${shownByModerators('post', 'p.id', 'p.user_id')})`;

/**
 * posts and the rows that hang off them (likes, bookmarks, comments). Counters live on the post
 * row and change under its lock in the transaction of the toggle or comment; each change takes a
 * version from count_version_seq, and a like or comment is activity that moves the post in the
 * feed (feed-keys.ts).
 */
export class PostRepository implements PostCards {
  constructor(private readonly dataSource: DataSource) {}

  /** Posts by id for the caller, in no particular order. */
  async byIds(ids: string[], callerId: string | undefined, manager?: EntityManager): Promise<PostRow[]> {
    if (ids.length === 0) return [];
    const text = `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.user_id WHERE p.id = ANY($2::uuid[])
      AND ${shownOrOwn} AND ${seenDespitePrivacySql('$1::uuid', 'p.user_id')}`;
    const values = [callerId ?? null, ids];
    // Inside a transaction, its own connection; otherwise the prepared statement (the feed's cards).
    const rows = manager ? ((await manager.query(text, values)) as Array<Record<string, unknown>>) : await preparedQuery<Record<string, unknown>>(this.dataSource, 'social_posts_by_ids_v3', text, values);
    return rows.map(postRowFrom);
  }

  async find(id: string, callerId: string | undefined, manager?: EntityManager): Promise<PostRow | null> {
    return (await this.byIds([id], callerId, manager))[0] ?? null;
  }

  /**
   * The post where it is seen in context (its own page, its comments) as find() reads it; and, to
   * staff, one the moderators took out (hidden, or its author suspended) whoever may see it
   * otherwise, with `takenOut` true: they review it there, read-only (onPost() still refuses
   * likes, bookmarks and comments on it), while it stays out of their lists and feeds; with why
   * (`moderationReason`, for staff only).
   */
  async inContext(id: string, callerId: string | undefined): Promise<(PostRow & { takenOut: boolean; moderationReason: string | null }) | null> {
    const shown = `(${shownByModerators('post', 'p.id', 'p.user_id')})`;
    const [raw] = (await this.dataSource.query(
      `SELECT ${POST_COLUMNS}, NOT ${shown} AS "takenOut",
              CASE WHEN NOT ${shown} AND ${staffSql('$1::uuid')} THEN ${takenOutReasonSql('post', 'p.id', 'p.user_id')} END AS "moderationReason"
         FROM posts p LEFT JOIN users u ON u.id = p.user_id
        WHERE p.id = $2
          AND ((${shownOrOwn} AND ${seenDespitePrivacySql('$1::uuid', 'p.user_id')}) OR (NOT ${shown} AND ${staffSql('$1::uuid')}))`,
      [callerId ?? null, id],
    )) as Array<Record<string, unknown> & { takenOut: boolean; moderationReason: string | null }>;
    return raw ? { ...postRowFrom(raw), takenOut: raw.takenOut, moderationReason: raw.moderationReason } : null;
  }

  /** Newest first, optionally of one author, after the cursor key. */
  async list(callerId: string | undefined, limit: number, after?: CursorKey, authorId?: string): Promise<PostRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.user_id
        WHERE ($3::timestamptz IS NULL OR (p.created_at, p.id) < ($3::timestamptz, $4::uuid))
          AND ($5::uuid IS NULL OR p.user_id = $5::uuid)
          AND ${shownOrOwn} AND ${seenDespitePrivacySql('$1::uuid', 'p.user_id')}
        ORDER BY p.created_at DESC, p.id DESC LIMIT $2`,
      [callerId ?? null, limit, after?.[0] ?? null, after?.[1] ?? null, authorId ?? null],
    )) as Array<Record<string, unknown>>;
    return rows.map(postRowFrom);
  }

  /** Whether the viewer may see the author's posts as far as privacy goes (private-accounts/private-account-sql.ts). */
  async seenDespitePrivacy(manager: EntityManager, authorId: string, viewerId: string): Promise<boolean> {
    const [row] = (await manager.query(`SELECT ${seenDespitePrivacySql('$1::uuid', '$2::uuid')} AS seen`, [viewerId, authorId])) as Array<{ seen: boolean }>;
    return row?.seen ?? false;
  }

  /** Whether the moderators left the post shown: not hidden, its author not suspended (moderation-filters.ts). */
  async shownByModerators(manager: EntityManager, id: string): Promise<boolean> {
    const [row] = (await manager.query(`SELECT ${shownByModerators('post', 'p.id', 'p.user_id')} AS shown FROM posts p WHERE p.id = $1`, [id])) as Array<{ shown: boolean }>;
    return row?.shown ?? false;
  }

  /** The post's author, with the row locked for the rest of the transaction; null when there is none. */
  async lock(manager: EntityManager, id: string): Promise<{ userId: string } | null> {
    const [row] = (await manager.query(`SELECT user_id AS "userId" FROM posts WHERE id = $1 FOR UPDATE`, [id])) as Array<{ userId: string }>;
    return row ?? null;
  }

  /** Inserts a post with its first score (no likes, no comments, active now). */
  async insert(manager: EntityManager, post: { id: string; userId: string; content: string; hashtags: string[]; mentions: string[]; sensitive?: boolean }): Promise<void> {
    await manager.query(
      `INSERT INTO posts (id, user_id, content, hashtags, mentions, sensitive, activity_score, score_band, last_activity_at, key_changed_at, created_at, updated_at)
       SELECT $1, $2, $3, $4, $5, $6, s.score, floor(s.score * 10), s.now, s.now, s.now, s.now
         FROM (SELECT now() AS now, ${activityScoreSql({ likes: '0', comments: '0', lastActivityAt: 'now()' })} AS score) AS s`,
      [post.id, post.userId, post.content, post.hashtags, post.mentions, post.sensitive ?? false],
    );
  }

  async updateContent(manager: EntityManager, id: string, change: { content: string; hashtags: string[]; mentions: string[] }): Promise<void> {
    await manager.query(
      // An unchanged text leaves the post as it was: it is not "edited".
      `UPDATE posts SET content = $2, hashtags = $3, mentions = $4, updated_at = now()
        WHERE id = $1 AND content IS DISTINCT FROM $2`,
      [id, change.content, change.hashtags, change.mentions],
    );
  }

  /** Its author's own mark (not an edit of the text); the moderators' mark stays whatever they set. */
  async setSensitive(manager: EntityManager, id: string, sensitive: boolean): Promise<void> {
    await manager.query('UPDATE posts SET sensitive = $2 WHERE id = $1', [id, sensitive]);
  }

  /** Deletes a post and everything that hangs off it (reports stay: moderation keeps the record). */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query('DELETE FROM post_likes WHERE post_id = $1', [id]);
    await manager.query('DELETE FROM post_bookmarks WHERE post_id = $1', [id]);
    await manager.query('DELETE FROM post_comments WHERE post_id = $1', [id]);
    await manager.query('DELETE FROM posts WHERE id = $1', [id]);
    await withdrawFromInboxes(manager, 'post', id);
  }

  /**
   * Adds or removes the caller's like or bookmark (the post row must be locked). Null when it was
   * already so; otherwise the post's new count.
   */
  async setReaction(manager: EntityManager, kind: 'like' | 'bookmark', postId: string, userId: string, active: boolean): Promise<PostCountChange | null> {
    const rows = kind === 'like' ? 'post_likes' : 'post_bookmarks';
    const changed: unknown[] = await manager.query(
      active
        ? `WITH r AS (INSERT INTO ${rows} (post_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1) SELECT * FROM r`
        : `WITH r AS (DELETE FROM ${rows} WHERE post_id = $1 AND user_id = $2 RETURNING 1) SELECT * FROM r`,
      [postId, userId],
    );
    if (changed.length === 0) return null;
    const delta = active ? 1 : -1;
    // A new like is activity; taking one back leaves the last activity where it was.
    return this.count(manager, postId, kind === 'like' ? 'likes_count' : 'bookmarks_count', delta, kind === 'like' && active);
  }

  /** Adds a comment (the post row must be locked) and counts it. */
  async addComment(manager: EntityManager, comment: { id: string; postId: string; userId: string; userName: string; content: string }): Promise<{ createdAt: Date; change: PostCountChange }> {
    const createdAt = await this.insertComment(manager, { ...comment, held: false });
    return { createdAt, change: await this.countComment(manager, comment.postId) };
  }

  /** Writes a comment (the post row must be locked) without counting it: a held one is counted on approval. */
  async insertComment(manager: EntityManager, comment: { id: string; postId: string; userId: string; userName: string; content: string; held: boolean }): Promise<Date> {
    const [row] = (await manager.query(
      `INSERT INTO post_comments (id, post_id, user_id, user_name, content, held) VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at AS "createdAt"`,
      [comment.id, comment.postId, comment.userId, comment.userName, comment.content, comment.held],
    )) as Array<{ createdAt: Date }>;
    return row!.createdAt;
  }

  /** Counts one more comment on the post (the row must be locked), as activity. */
  async countComment(manager: EntityManager, postId: string, delta = 1): Promise<PostCountChange> {
    return this.count(manager, postId, 'comments_count', delta, delta > 0);
  }

  async comment(id: string): Promise<PostCommentRow | null> {
    return (await this.comments(null, 1, undefined, id))[0] ?? null;
  }

  /** The post's pinned comment, if any (pinned comments are never held). */
  async pinnedComment(postId: string): Promise<PostCommentRow | null> {
    const [row] = (await this.dataSource.query('SELECT id FROM post_comments WHERE post_id = $1 AND pinned_at IS NOT NULL', [postId])) as Array<{ id: string }>;
    return row ? this.comment(row.id) : null;
  }

  /**
   * A post's comments, oldest first, after the cursor key (or the one comment `id`); with a
   * `reader`, those they may see (held ones: their author and the post's author only) without the
   * pinned one (pinnedComment()).
   */
  async comments(postId: string | null, limit: number, after?: CursorKey, id?: string, reader?: { userId: string | undefined; moderator: boolean }): Promise<PostCommentRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT c.id, c.post_id AS "postId", c.user_id AS "userId", c.user_name AS "userName", c.content, c.created_at AS "createdAt",
              c.held, c.pinned_at AS "pinnedAt", c.removed_by_moderators AS "removedByModerators",
              u.display_name AS "authorDisplayName", u.username AS "authorUsername", u.avatar AS "authorAvatar", u.id IS NOT NULL AS "authorKnown",
              ${cursorTimestamp('c.created_at')} AS "keyAt"
         FROM ${commentsInContextSql('post_comments', 'post_comment', '$6')} c LEFT JOIN users u ON u.id = c.user_id
        WHERE ($1::uuid IS NULL OR c.post_id = $1::uuid) AND ($5::uuid IS NULL OR c.id = $5::uuid)
          AND ($3::timestamptz IS NULL OR (c.created_at, c.id) > ($3::timestamptz, $4::uuid))
          AND (NOT $8::boolean OR (c.pinned_at IS NULL AND ${shownTo('c', '$6', '$7')}))
        ORDER BY c.created_at, c.id LIMIT $2`,
      [postId, limit, after?.[0] ?? null, after?.[1] ?? null, id ?? null, reader?.userId ?? null, reader?.moderator ?? false, reader !== undefined],
    )) as Array<Omit<PostCommentRow, 'author' | 'key'> & { authorKnown: boolean; authorDisplayName: string | null; authorUsername: string | null; authorAvatar: string | null; keyAt: string }>;
    return rows.map((raw) => ({
      id: raw.id,
      postId: raw.postId,
      userId: raw.userId,
      userName: raw.userName,
      content: raw.content,
      createdAt: raw.createdAt,
      held: raw.held,
      pinnedAt: raw.pinnedAt,
      removedByModerators: raw.removedByModerators,
      author: raw.authorKnown ? { displayName: raw.authorDisplayName ?? '', username: raw.authorUsername ?? '', avatar: raw.authorAvatar } : null,
      key: [raw.keyAt, raw.id],
    }));
  }

  /**
   * Changes a counter by `delta`, with a new version; the score follows likes and comments, and
   * `activity` moves the last activity to now. The new sort key goes through setFeedKey.
   */
  private async count(manager: EntityManager, postId: string, counter: Counter, delta: number, activity: boolean): Promise<PostCountChange> {
    const likes = counter === 'likes_count' ? String(delta) : '0';
    const comments = counter === 'comments_count' ? String(delta) : '0';
    const lastActivity = activity ? 'greatest(last_activity_at, now())' : 'last_activity_at';
    const [row] = (await manager.query(
      // In a CTE so the driver answers with the returned rows, as for a SELECT.
      `WITH changed AS (
         UPDATE posts SET ${counter} = greatest(${counter} + $2::int, 0), count_version = nextval('count_version_seq'),
                activity_score = ${scoreAfter(likes, comments, lastActivity)}
          WHERE id = $1
          RETURNING ${counter} AS count, count_version::text AS version, user_id AS "ownerId", activity_score AS score,
                    ${cursorTimestamp(lastActivity)} AS "activityAt")
       SELECT * FROM changed`,
      [postId, delta],
    )) as Array<{ count: number; version: string; ownerId: string; score: number; activityAt: string }>;
    await setFeedKey(manager, 'post', postId, Math.floor(row!.score * 10), row!.activityAt);
    return { count: row!.count, version: BigInt(row!.version), ownerId: row!.ownerId };
  }
}
