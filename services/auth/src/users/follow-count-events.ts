import { on } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sets one of a person's counts, only from a version newer than the stored one. */
async function setCount(manager: EntityManager, column: 'followers' | 'following', userId: string, count: bigint, version: bigint): Promise<void> {
  if (!UUID.test(userId) || version <= 0n) return;
  await manager.query(
    `UPDATE users SET ${column}_count = $2, ${column}_version = $3 WHERE id = $1 AND ${column}_version < $3`,
    [userId.toLowerCase(), Math.max(0, Math.min(Number(count), 2_147_483_647)), version.toString()],
  );
}

/**
 * Follower and following counts of profiles, from the social service's events (it owns the
 * follows). Each event carries the absolute counts of both people and a version that grows with
 * every change, so a count is set only from a newer version: a redelivered or overtaken event
 * never makes it go back.
 */
export const followCountEventHandlers = [
  on(SocialEvents.FollowChanged, async (change, _meta, manager) => {
    await setCount(manager, 'followers', change.followeeId, change.followersCount, change.followersVersion);
    await setCount(manager, 'following', change.followerId, change.followingCount, change.followingVersion);
  }),
];
