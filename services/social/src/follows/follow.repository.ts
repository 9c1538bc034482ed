import type { DataSource, EntityManager } from 'typeorm';
import { type CursorKey, cursorTimestamp } from '@timeliner/platform';
import { inboxFollowed, inboxUnfollowed } from '../feed-index/following-inbox.js';
import { authorNotSuspended } from '../read-rules/moderation-filters.js';

/** A person's two counts. */
export interface FollowCounts {
  followersCount: number;
  followingCount: number;
}

/** A follow or unfollow that really changed something, with the counts it left. */
export interface FollowChange {
  followerId: string;
  followeeId: string;
  active: boolean;
  /** The followee's follower count after the change, and its version. */
  followersCount: number;
  followersVersion: bigint;
  /** The follower's following count after the change, and its version. */
  followingCount: number;
  followingVersion: bigint;
}

/** Which side of the follows table a list reads. */
export type FollowDirection = 'followers' | 'following';

/** One row of a followers / following list, with what the users read model knows of the person. */
export interface FollowListRow {
  userId: string;
  followedAt: Date;
  isFollowing: boolean;
  person: { username: string; displayName: string; avatar: string | null } | null;
  /** Sort key, for the next page's cursor. */
  key: [createdAt: string, userId: string];
}

interface RawListRow {
  user_id: string;
  created_at: Date;
  created_key: string;
  is_following: boolean;
  username: string | null;
  display_name: string | null;
  avatar: string | null;
}

// followers of $1: the rows pointing at them, newest first (follows_following_idx);
// following of $1: the rows they wrote, newest first (follows_follower_created_idx).
const LIST: Record<FollowDirection, { where: string; other: string }> = {
  followers: { where: 'f.following_id', other: 'f.follower_id' },
  following: { where: 'f.follower_id', other: 'f.following_id' },
};

const zeroCounts = (): FollowCounts => ({ followersCount: 0, followingCount: 0 });

/**
 * follows (who follows whom) and follow_counts (how many, versioned). Every change takes both
 * people's count rows first, locked in id order, so concurrent follows and unfollows of the same
 * people queue behind each other (counts always equal rows) and two requests crossing in opposite
 * directions never deadlock. Versions come from count_version_seq, so they follow commit order.
 */
export class FollowRepository {
  constructor(private readonly dataSource: DataSource) {}

  async userExists(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM users WHERE id = $1', [userId]);
    return rows.length > 0;
  }

  async counts(userId: string, manager: EntityManager = this.dataSource.manager): Promise<FollowCounts> {
    const [row] = (await manager.query('SELECT followers_count, following_count FROM follow_counts WHERE user_id = $1', [userId])) as Array<{ followers_count: number; following_count: number }>;
    return row ? { followersCount: row.followers_count, followingCount: row.following_count } : zeroCounts();
  }

  async isFollowing(followerId: string | undefined, followeeId: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    if (!followerId) return false;
    const rows: unknown[] = await manager.query('SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2', [followerId, followeeId]);
    return rows.length > 0;
  }

  /** Whether the account is private (the users read model), read in the caller's transaction. */
  async isPrivate(manager: EntityManager, userId: string): Promise<boolean> {
    const [row] = (await manager.query('SELECT is_private FROM users WHERE id = $1', [userId])) as Array<{ is_private: boolean }>;
    return row?.is_private ?? false;
  }

  /** Makes sure both people have a count row and locks them, lower id first. */
  async lock(manager: EntityManager, userIds: string[]): Promise<void> {
    const ids = [...new Set(userIds)].sort();
    await manager.query('INSERT INTO follow_counts (user_id) SELECT id FROM unnest($1::uuid[]) AS id ORDER BY id ON CONFLICT DO NOTHING', [ids]);
    await manager.query('SELECT user_id FROM follow_counts WHERE user_id = ANY($1::uuid[]) ORDER BY user_id FOR UPDATE', [ids]);
  }

  /**
   * Follows or unfollows under both count rows' locks. Null when it was already so (nothing
   * changed, nothing to announce); otherwise the change with both counts after it.
   */
  async set(manager: EntityManager, followerId: string, followeeId: string, active: boolean): Promise<FollowChange | null> {
    await this.lock(manager, [followerId, followeeId]);
    // Wrapped in CTEs so the driver answers with the returned rows for inserts and deletes alike.
    const changed: unknown[] = await manager.query(
      active
        ? 'WITH r AS (INSERT INTO follows (follower_id, following_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1) SELECT * FROM r'
        : 'WITH r AS (DELETE FROM follows WHERE follower_id = $1 AND following_id = $2 RETURNING 1) SELECT * FROM r',
      [followerId, followeeId],
    );
    if (changed.length === 0) return null;
    if (active) await inboxFollowed(manager, followerId, followeeId);
    else await inboxUnfollowed(manager, followerId, followeeId);
    return this.recount(manager, followerId, followeeId, active);
  }

  /** Moves the followee's follower count and the follower's following count by one, each with a new version. */
  private async recount(manager: EntityManager, followerId: string, followeeId: string, active: boolean): Promise<FollowChange> {
    const delta = active ? 1 : -1;
    const [followers] = (await manager.query(
      `WITH c AS (UPDATE follow_counts SET followers_count = greatest(followers_count + $2::int, 0), followers_version = nextval('count_version_seq')
                   WHERE user_id = $1 RETURNING followers_count AS count, followers_version::text AS version)
       SELECT * FROM c`,
      [followeeId, delta],
    )) as Array<{ count: number; version: string }>;
    const [following] = (await manager.query(
      `WITH c AS (UPDATE follow_counts SET following_count = greatest(following_count + $2::int, 0), following_version = nextval('count_version_seq')
                   WHERE user_id = $1 RETURNING following_count AS count, following_version::text AS version)
       SELECT * FROM c`,
      [followerId, delta],
    )) as Array<{ count: number; version: string }>;
    return {
      followerId,
      followeeId,
      active,
      followersCount: followers!.count,
      followersVersion: BigInt(followers!.version),
      followingCount: following!.count,
      followingVersion: BigInt(following!.version),
    };
  }

  /**
   * Up to `limit` people of a list after `after`, newest follow first; `isFollowing` says whether
   * `callerId` follows each of them.
   */
  async list(direction: FollowDirection, userId: string, callerId: string | undefined, limit: number, after?: CursorKey): Promise<FollowListRow[]> {
    const { where, other } = LIST[direction];
    const params: unknown[] = [userId, callerId ?? null, limit];
    // A suspended person is left out of every list while the suspension lasts.
    let condition = `${where} = $1 AND ${authorNotSuspended(other)}`;
    if (after) {
      params.push(after[0], after[1]);
      condition += ` AND (f.created_at, ${other}) < ($4::timestamptz, $5::uuid)`;
    }
    const rows: RawListRow[] = await this.dataSource.query(
      `SELECT ${other} AS user_id, f.created_at, ${cursorTimestamp('f.created_at')} AS created_key,
              ($2::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM follows mine WHERE mine.follower_id = $2::uuid AND mine.following_id = ${other})) AS is_following,
              u.username, u.display_name, u.avatar
         FROM follows f
         LEFT JOIN users u ON u.id = ${other}
        WHERE ${condition}
        ORDER BY f.created_at DESC, ${other} DESC
        LIMIT $3`,
      params,
    );
    return rows.map((raw) => ({
      userId: raw.user_id,
      followedAt: raw.created_at,
      isFollowing: raw.is_following,
      person: raw.username === null ? null : { username: raw.username, displayName: raw.display_name ?? '', avatar: raw.avatar },
      key: [raw.created_key, raw.user_id],
    }));
  }

  /**
   * A person is gone: every follow from or to them is deleted, and the other people's counts go
   * down, one change per follow (for the events). Their own count row goes last.
   */
  async forget(manager: EntityManager, userId: string): Promise<FollowChange[]> {
    const others = async () =>
      ((await manager.query(
        `SELECT following_id AS id FROM follows WHERE follower_id = $1
          UNION SELECT follower_id FROM follows WHERE following_id = $1`,
        [userId],
      )) as Array<{ id: string }>).map((r) => r.id);
    const locked = new Set([userId, ...(await others())]);
    await this.lock(manager, [...locked]);
    // A follow made between the look-up and the lock: take its other person too (late, so out of
    // order; a deadlock there is detected by Postgres and the event is simply retried).
    const late = (await others()).filter((id) => !locked.has(id));
    if (late.length > 0) await this.lock(manager, late);

    const gone = (await manager.query(
      `WITH gone AS (DELETE FROM follows WHERE follower_id = $1 OR following_id = $1 RETURNING follower_id, following_id, created_at)
       SELECT follower_id, following_id FROM gone ORDER BY created_at, follower_id, following_id`,
      [userId],
    )) as Array<{ follower_id: string; following_id: string }>;
    const changes: FollowChange[] = [];
    for (const row of gone) changes.push(await this.recount(manager, row.follower_id, row.following_id, false));
    await manager.query('DELETE FROM follow_counts WHERE user_id = $1', [userId]);
    return changes;
  }
}
