import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import type { UserRecord } from '../users/user.entity.js';

/**
 * A post as its card shows it, wherever it is listed (the posts' own lists, the feed, the saved
 * items): the row, its author as known here, and the caller's state; the columns that read it
 * beside other rows, and the one read the feed and the saved items need of posts.
 */

/** A post as read for an answer: the row, its author as known here, and the caller's state. */
export interface PostRow {
  id: string;
  userId: string;
  content: string;
  hashtags: string[];
  mentions: string[];
  likesCount: number;
  commentsCount: number;
  createdAt: Date;
  updatedAt: Date;
  edited: boolean;
  liked: boolean;
  bookmarked: boolean;
  /** Marked sensitive by its author or the moderators. */
  sensitive: boolean;
  /** Hidden by the moderators: only its author still reads it (post.repository.ts). */
  removedByModerators: boolean;
  author: Pick<UserRecord, 'displayName' | 'username' | 'avatar'> | null;
  /** (created_at as cursor text, id): the key of the newest-first list. */
  key: CursorKey;
}

/**
 * SELECT list of a post (alias `p`, its author `user`) for the caller $1 (may be null), each name
 * after `prefix` (so a query can read a post beside other rows; postRowFrom reads it back).
 */
export const postColumns = (prefix = '', user = 'u') => `
  p.id AS "${prefix}id", p.user_id AS "${prefix}userId", p.content AS "${prefix}content", p.hashtags AS "${prefix}hashtags", p.mentions AS "${prefix}mentions",
  p.likes_count AS "${prefix}likesCount", p.comments_count AS "${prefix}commentsCount",
  p.created_at AS "${prefix}createdAt", p.updated_at AS "${prefix}updatedAt", p.updated_at > p.created_at AS "${prefix}edited",
  ($1::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = $1::uuid)) AS "${prefix}liked",
  ($1::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM post_bookmarks b WHERE b.post_id = p.id AND b.user_id = $1::uuid)) AS "${prefix}bookmarked",
  (p.sensitive OR EXISTS (SELECT 1 FROM moderated_content mc WHERE mc.content_type = 'post' AND mc.content_id = p.id AND mc.sensitive)) AS "${prefix}sensitive",
  EXISTS (SELECT 1 FROM moderated_content mc WHERE mc.content_type = 'post' AND mc.content_id = p.id AND mc.hidden) AS "${prefix}removedByModerators",
  ${user}.display_name AS "${prefix}authorDisplayName", ${user}.username AS "${prefix}authorUsername", ${user}.avatar AS "${prefix}authorAvatar",
  ${user}.id IS NOT NULL AS "${prefix}authorKnown", ${cursorTimestamp('p.created_at')} AS "${prefix}keyAt"`;

interface RawPost extends Omit<PostRow, 'author' | 'key'> {
  authorKnown: boolean;
  authorDisplayName: string | null;
  authorUsername: string | null;
  authorAvatar: string | null;
  keyAt: string;
}

/** A post as postColumns reads it (its columns without their prefix). */
export const postRowFrom = (columns: Record<string, unknown>): PostRow => toPostRow(columns as unknown as RawPost);

const toPostRow = (raw: RawPost): PostRow => ({
  id: raw.id,
  userId: raw.userId,
  content: raw.content,
  hashtags: raw.hashtags,
  mentions: raw.mentions,
  likesCount: raw.likesCount,
  commentsCount: raw.commentsCount,
  createdAt: raw.createdAt,
  updatedAt: raw.updatedAt,
  edited: raw.edited,
  liked: raw.liked,
  bookmarked: raw.bookmarked,
  sensitive: raw.sensitive,
  removedByModerators: raw.removedByModerators,
  author: raw.authorKnown ? { displayName: raw.authorDisplayName ?? '', username: raw.authorUsername ?? '', avatar: raw.authorAvatar } : null,
  key: [raw.keyAt, raw.id],
});

/** Posts by id as their cards show them, for the caller: what a list of other things needs of posts. */
export interface PostCards {
  /** In no particular order; a post that is not there is left out. */
  byIds(ids: string[], callerId: string | undefined): Promise<PostRow[]>;
}
