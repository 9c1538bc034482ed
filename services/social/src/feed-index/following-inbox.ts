import type { EntityManager } from 'typeorm';
import type { FeedItemType } from './feed-keys.js';

/**
 * The following tab's inbox: for each person, the items their following tab shows (their own
 * posts and published timelines, the posts and public published timelines of the people they
 * follow), keyed by the item's creation time. Written when the item or the follow changes (fan-out
 * on write), so a page is one index range of one person instead of a scan of everyone they follow.
 *
 * Who may be in an item's audience depends on follows; the writers of both sides take the author's
 * follow_counts row (a follow or unfollow FOR UPDATE, an item's change FOR SHARE), so an item
 * written while its author gains a follower reaches that follower from one side or the other.
 *
 * `expectedInboxSql` is what the rows must be at any moment, from the source tables alone: the
 * migration fills the inbox with it, and the tests compare the inbox against it.
 */
export const expectedInboxSql = `
  SELECT p.user_id AS owner_id, 'post' AS item_type, p.id AS item_id, p.user_id AS author_id, p.created_at AS at FROM posts p
  UNION ALL
  SELECT f.follower_id, 'post', p.id, p.user_id, p.created_at FROM follows f JOIN posts p ON p.user_id = f.following_id
  UNION ALL
  SELECT t.creator_id, 'timeline', t.id, t.creator_id, t.created_at FROM feed_timelines t WHERE t.status = 'published'
  UNION ALL
  SELECT f.follower_id, 'timeline', t.id, t.creator_id, t.created_at FROM follows f JOIN feed_timelines t ON t.creator_id = f.following_id
   WHERE t.status = 'published' AND t.visibility = 'public'`;

/** Holds off follows and unfollows of `authorId` until the transaction ends (see above). */
export async function lockAudience(manager: EntityManager, authorId: string): Promise<void> {
  await manager.query('INSERT INTO follow_counts (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [authorId]);
  await manager.query('SELECT 1 FROM follow_counts WHERE user_id = $1 FOR SHARE', [authorId]);
}

export interface InboxItem {
  type: FeedItemType;
  id: string;
  authorId: string;
  /** The item's creation time (the tab's order). */
  at: Date | string;
}

/**
 * Puts an item in the inboxes it belongs to: its author's, and with `followers` its author's
 * followers' too. Takes the audience lock. An item already there stays as it is.
 */
export async function deliverToInboxes(manager: EntityManager, item: InboxItem, { followers }: { followers: boolean }): Promise<void> {
  await lockAudience(manager, item.authorId);
  await manager.query(
    `INSERT INTO feed_inbox (owner_id, item_type, item_id, author_id, at)
     SELECT $3::uuid, $1, $2::uuid, $3::uuid, $4::timestamptz
     UNION ALL
     SELECT f.follower_id, $1, $2::uuid, $3::uuid, $4::timestamptz FROM follows f WHERE f.following_id = $3::uuid AND $5::boolean
     ON CONFLICT DO NOTHING`,
    [item.type, item.id, item.authorId, item.at, followers],
  );
}

/** Takes an item out of every inbox, or (with `keepAuthor`) out of every inbox but its author's. */
export async function withdrawFromInboxes(manager: EntityManager, type: FeedItemType, id: string, { keepAuthor = false } = {}): Promise<void> {
  await manager.query(
    `DELETE FROM feed_inbox WHERE item_id = $2 AND item_type = $1 AND NOT ($3::boolean AND owner_id = author_id)`,
    [type, id, keepAuthor],
  );
}

/** After `followerId` followed `followeeId` (under both follow_counts locks): the followee's items join the follower's inbox. */
export async function inboxFollowed(manager: EntityManager, followerId: string, followeeId: string): Promise<void> {
  await manager.query(
    `INSERT INTO feed_inbox (owner_id, item_type, item_id, author_id, at)
     SELECT $1::uuid, 'post', p.id, p.user_id, p.created_at FROM posts p WHERE p.user_id = $2
     UNION ALL
     SELECT $1::uuid, 'timeline', t.id, t.creator_id, t.created_at FROM feed_timelines t
      WHERE t.creator_id = $2 AND t.status = 'published' AND t.visibility = 'public'
     ON CONFLICT DO NOTHING`,
    [followerId, followeeId],
  );
}

/** After an unfollow: the followee's items leave the follower's inbox. */
export async function inboxUnfollowed(manager: EntityManager, followerId: string, followeeId: string): Promise<void> {
  if (followerId === followeeId) return;
  await manager.query('DELETE FROM feed_inbox WHERE author_id = $2 AND owner_id = $1', [followerId, followeeId]);
}

/** A deleted account: its own inbox, and its items in anyone else's. */
export async function forgetInbox(manager: EntityManager, userId: string): Promise<void> {
  await manager.query('DELETE FROM feed_inbox WHERE owner_id = $1', [userId]);
  await manager.query('DELETE FROM feed_inbox WHERE author_id = $1', [userId]);
}
