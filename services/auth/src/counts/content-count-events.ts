import { idOf, on } from '@timeliner/platform';
import { Reaction, SocialEvents, TargetType, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { LikeTargetType } from './like-target.entity.js';
import { type CounterDelta, ProfileCountsRepository, type StoredTimeline } from './profile-counts.repository.js';

/**
 * A person's `totalLikes`, `totalViews` and timeline counts, kept from other services' events
 * (social owns likes and posts, timelines owns timelines), never by reading their tables.
 *
 * Each event carries absolute values and a version (ReactionChanged: the target's like count and
 * `count_version`; TimelineSnapshot: views, visibility, status, creator and `revision`). One row
 * per target holds what was last applied (like_targets, profile_timelines); a change is applied
 * only from a newer version, and the person's counters in `users` move by the difference between
 * the new and the stored row, in the same transaction. So the counters always equal the sums over
 * the rows, and a redelivered, replayed or overtaken event changes nothing.
 *
 * Concurrency: every change of a timeline (snapshot, deletion, a like on it) first locks its
 * profile_timelines row; a post's like changes lock its like_targets row. Counters are then moved
 * with `x = x + delta`, person by person in id order, so transactions never wait on each other in
 * a cycle.
 *
 * Chosen scope: likes on posts and timelines count; likes on single videos do not (the spec counts
 * likes "on their timelines and posts"). A deleted post or timeline takes its likes and views
 * with it. A timeline's likes belong to its creator as the newest snapshot says, so an ownership
 * transfer moves them.
 */

const INT_MAX = 2_147_483_647n;
const clampInt = (value: bigint): number => Number(value < 0n ? 0n : value > INT_MAX ? INT_MAX : value);

const counts = new ProfileCountsRepository();

/** Differences to a few people's counters, applied at the end of the transaction. */
class CounterChanges {
  private readonly byUser = new Map<string, CounterDelta>();

  add(userId: string | null, change: Partial<CounterDelta>): void {
    if (!userId) return;
    const delta = this.byUser.get(userId) ?? { likes: 0n, views: 0n, timelines: 0n, publicTimelines: 0n };
    delta.likes += change.likes ?? 0n;
    delta.views += change.views ?? 0n;
    delta.timelines += change.timelines ?? 0n;
    delta.publicTimelines += change.publicTimelines ?? 0n;
    this.byUser.set(userId, delta);
  }

  async apply(manager: EntityManager): Promise<void> {
    // In id order: two transactions touching the same two people lock them in the same order.
    for (const userId of [...this.byUser.keys()].sort()) {
      const d = this.byUser.get(userId)!;
      if (d.likes === 0n && d.views === 0n && d.timelines === 0n && d.publicTimelines === 0n) continue;
      await counts.addToCounters(manager, userId, d);
    }
  }
}

/** What a stored timeline adds to its creator's counters (nothing before its first snapshot or once deleted). */
function timelineCounts(row: Pick<StoredTimeline, 'views' | 'isPublic' | 'revision' | 'deleted'>): Partial<CounterDelta> {
  if (row.deleted || row.revision === 0n) return {};
  return { timelines: 1n, publicTimelines: row.isPublic ? 1n : 0n, views: row.views };
}

const negate = (d: Partial<CounterDelta>): Partial<CounterDelta> => ({
  likes: -(d.likes ?? 0n),
  views: -(d.views ?? 0n),
  timelines: -(d.timelines ?? 0n),
  publicTimelines: -(d.publicTimelines ?? 0n),
});

export const contentCountEventHandlers = [
  on(SocialEvents.ReactionChanged, async (reaction, _meta, manager) => {
    if (reaction.reaction !== Reaction.LIKE) return;
    const type: LikeTargetType | null =
      reaction.targetType === TargetType.POST ? 'post' : reaction.targetType === TargetType.TIMELINE ? 'timeline' : null;
    const targetId = idOf(reaction.targetId);
    if (!type || !targetId || reaction.countVersion <= 0n) return;

    // A timeline's likes are its creator's as its newest snapshot says; before any snapshot, as social says.
    let snapshotCreator: string | null | undefined;
    if (type === 'timeline') {
      const timeline = await counts.lockTimeline(manager, targetId);
      if (timeline.deleted) return;
      if (timeline.revision > 0n) snapshotCreator = timeline.creatorId;
    }
    const eventOwner = idOf(reaction.ownerId);
    const target = await counts.lockTarget(manager, type, targetId, snapshotCreator !== undefined ? snapshotCreator : eventOwner);
    if (target.deleted) return;

    const newer = reaction.countVersion > target.version;
    const likes = newer ? clampInt(reaction.count) : target.likes;
    const owner = snapshotCreator !== undefined ? snapshotCreator : eventOwner && (newer || !target.ownerId) ? eventOwner : target.ownerId;
    if (likes === target.likes && owner === target.ownerId && !newer) return;

    const changes = new CounterChanges();
    changes.add(target.ownerId, { likes: -BigInt(target.likes) });
    changes.add(owner, { likes: BigInt(likes) });
    await counts.updateTarget(manager, type, targetId, { likes, version: reaction.countVersion, ownerId: owner });
    await changes.apply(manager);
  }),

  on(SocialEvents.PostDeleted, async (post, _meta, manager) => {
    const postId = idOf(post.postId);
    if (!postId) return;
    // A tombstone even for a post nobody liked yet: a like overtaken by the deletion stays out.
    const target = await counts.lockTarget(manager, 'post', postId, idOf(post.userId));
    if (target.deleted) return;
    const changes = new CounterChanges();
    changes.add(target.ownerId, { likes: -BigInt(target.likes) });
    await counts.markTargetDeleted(manager, 'post', postId);
    await changes.apply(manager);
  }),

  on(TimelinesEvents.TimelineSnapshot, async (snapshot, _meta, manager) => {
    const timelineId = idOf(snapshot.timelineId);
    if (!timelineId || snapshot.revision <= 0n) return;
    const stored = await counts.lockTimeline(manager, timelineId);
    if (stored.deleted || snapshot.revision <= stored.revision) return;

    const creator = idOf(snapshot.creatorId);
    const next = {
      creatorId: creator,
      views: snapshot.views < 0n ? 0n : snapshot.views,
      isPublic: snapshot.visibility === Visibility.PUBLIC && snapshot.status === TimelineStatus.PUBLISHED,
      revision: snapshot.revision,
      deleted: false,
    };
    const changes = new CounterChanges();
    changes.add(stored.creatorId, negate(timelineCounts(stored)));
    changes.add(creator, timelineCounts(next));
    await counts.updateTimeline(manager, timelineId, next);

    // The timeline's likes follow its creator (an ownership transfer moves them).
    const target = await counts.lockExistingTarget(manager, 'timeline', timelineId);
    if (target && !target.deleted && target.ownerId !== creator) {
      changes.add(target.ownerId, { likes: -BigInt(target.likes) });
      changes.add(creator, { likes: BigInt(target.likes) });
      await counts.setTargetOwner(manager, 'timeline', timelineId, creator);
    }
    await changes.apply(manager);
  }),

  on(TimelinesEvents.TimelineDeleted, async (deleted, _meta, manager) => {
    const timelineId = idOf(deleted.timelineId);
    if (!timelineId) return;
    const stored = await counts.lockTimeline(manager, timelineId);
    if (stored.deleted) return;
    const changes = new CounterChanges();
    changes.add(stored.creatorId, negate(timelineCounts(stored)));
    await counts.markTimelineDeleted(manager, timelineId);
    const target = await counts.lockExistingTarget(manager, 'timeline', timelineId);
    if (target && !target.deleted) {
      changes.add(target.ownerId, { likes: -BigInt(target.likes) });
      await counts.markTargetDeleted(manager, 'timeline', timelineId);
    }
    await changes.apply(manager);
  }),
];
