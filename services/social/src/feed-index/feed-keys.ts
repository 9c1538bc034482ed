import type { EntityManager } from 'typeorm';

/**
 * Keeps the for-you feed's order fixed for the length of a read.
 *
 * The feed sorts by (score band, last activity, id), and a like or a comment moves an item up. A
 * reader paging with a plain keyset cursor would then miss the items that moved above their
 * cursor and see twice the ones that moved below it. So a read remembers when it began (T, in the
 * cursor) and sorts every item by its key *as of T*: the current key when it has not changed since,
 * else the key its first change after T replaced, which feed_key_history keeps. Every item keeps
 * one key for the whole read, so 50 pages read while likes and posts keep arriving have no
 * duplicate and no gap; counts and liked state are still today's.
 *
 * Every change of a key goes through `setFeedKey`, in the transaction of the change.
 */
export type FeedItemType = 'post' | 'timeline';

const TABLE: Record<FeedItemType, string> = { post: 'posts', timeline: 'feed_timelines' };

/** How long a read may last: history older than this is pruned, and older cursors are refused. */
export const FEED_READ_HOURS = 6;

/**
 * Sets an item's key to (band, lastActivityAt). When it differs from the stored one, the stored
 * key goes to the history with the time of the change, and the item's key_changed_at is that time.
 * Takes the row's lock. Does nothing for an item that is not there.
 */
export async function setFeedKey(manager: EntityManager, type: FeedItemType, id: string, band: number, lastActivityAt: Date | string): Promise<void> {
  const table = TABLE[type];
  await manager.query(
    `WITH old AS (SELECT id, score_band, last_activity_at FROM ${table} WHERE id = $1 FOR UPDATE),
          moved AS (SELECT old.*, clock_timestamp() AS at FROM old
                     WHERE (old.score_band, old.last_activity_at) IS DISTINCT FROM ($2::int, $3::timestamptz)),
          kept AS (INSERT INTO feed_key_history (item_type, item_id, score_band, last_activity_at, replaced_at)
                   SELECT $4, id, score_band, last_activity_at, at FROM moved)
     UPDATE ${table} t SET score_band = $2, last_activity_at = $3, key_changed_at = moved.at
       FROM moved WHERE t.id = moved.id`,
    [id, band, lastActivityAt, type],
  );
}

/** Drops history no read can still need. */
export async function pruneFeedKeys(manager: EntityManager): Promise<number> {
  const [, count] = (await manager.query(`DELETE FROM feed_key_history WHERE replaced_at < now() - make_interval(hours => $1)`, [FEED_READ_HOURS + 1])) as [unknown, number];
  return count;
}
