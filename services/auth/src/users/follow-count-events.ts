import { idOf, on } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { type FollowCount, ProfileCountsRepository } from '../counts/profile-counts.repository.js';

const counts = new ProfileCountsRepository();

/** Sets one of a person's counts, only from a version newer than the stored one. */
async function setCount(manager: EntityManager, which: FollowCount, userId: string, count: bigint, version: bigint): Promise<void> {
  const id = idOf(userId);
  if (!id || version <= 0n) return;
  await counts.setFollowCount(manager, which, id, Math.max(0, Math.min(Number(count), 2_147_483_647)), version);
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
