import { on } from '@timeliner/platform';
import { Reaction, SocialEvents, TargetType, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { LikeTargetType } from './like-target.entity.js';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (value: string): string | null => (UUID.test(value) ? value.toLowerCase() : null);
const INT_MAX = 2_147_483_647n;
const clampInt = (value: bigint): number => Number(value < 0n ? 0n : value > INT_MAX ? INT_MAX : value);

interface Delta {
  likes: bigint;
  views: bigint;
  timelines: bigint;
  publicTimelines: bigint;
}

/** Differences to a few people's counters, applied at the end of the transaction. */
class CounterChanges {
  private readonly byUser = new Map<string, Delta>();

  add(userId: string | null, change: Partial<Delta>): void {
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
      await manager.query(
        `UPDATE users
            SET total_likes = total_likes + $2, total_views = total_views + $3,
                timelines_count = timelines_count + $4, public_timelines_count = public_timelines_count + $5
          WHERE id = $1`,
        [userId, d.likes.toString(), d.views.toString(), d.timelines.toString(), d.publicTimelines.toString()],
      );
    }
  }
}

interface TimelineRow {
  creator_id: string | null;
  views: string;
  is_public: boolean;
  revision: string;
  deleted: boolean;
}

interface TargetRow {
  owner_id: string | null;
  likes: number;
  version: string;
  deleted: boolean;
}

/** A timeline's row, created empty (revision 0) if new, locked until the transaction ends. */
async function lockTimeline(manager: EntityManager, timelineId: string): Promise<TimelineRow> {
  await manager.query('INSERT INTO profile_timelines (timeline_id) VALUES ($1) ON CONFLICT DO NOTHING', [timelineId]);
  const [row] = (await manager.query(
    'SELECT creator_id, views, is_public, revision, deleted FROM profile_timelines WHERE timeline_id = $1 FOR UPDATE',
    [timelineId],
  )) as TimelineRow[];
  return row!;
}

/** A target's row, created empty if new, locked until the transaction ends. */
async function lockTarget(manager: EntityManager, type: LikeTargetType, targetId: string, ownerId: string | null): Promise<TargetRow> {
  await manager.query('INSERT INTO like_targets (target_type, target_id, owner_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [type, targetId, ownerId]);
  return existingTarget(manager, type, targetId) as Promise<TargetRow>;
}

async function existingTarget(manager: EntityManager, type: LikeTargetType, targetId: string): Promise<TargetRow | undefined> {
  const [row] = (await manager.query(
    'SELECT owner_id, likes, version, deleted FROM like_targets WHERE target_type = $1 AND target_id = $2 FOR UPDATE',
    [type, targetId],
  )) as TargetRow[];
  return row;
}

/** What a stored timeline adds to its creator's counters (nothing before its first snapshot or once deleted). */
function timelineCounts(row: Pick<TimelineRow, 'views' | 'is_public' | 'revision' | 'deleted'>): Partial<Delta> {
  if (row.deleted || BigInt(row.revision) === 0n) return {};
  return { timelines: 1n, publicTimelines: row.is_public ? 1n : 0n, views: BigInt(row.views) };
}

const negate = (d: Partial<Delta>): Partial<Delta> => ({
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
    const targetId = uuidOrNull(reaction.targetId);
    if (!type || !targetId || reaction.countVersion <= 0n) return;

    // A timeline's likes are its creator's as its newest snapshot says; before any snapshot, as social says.
    let snapshotCreator: string | null | undefined;
    if (type === 'timeline') {
      const timeline = await lockTimeline(manager, targetId);
      if (timeline.deleted) return;
      if (BigInt(timeline.revision) > 0n) snapshotCreator = timeline.creator_id;
    }
    const eventOwner = uuidOrNull(reaction.ownerId);
    const target = await lockTarget(manager, type, targetId, snapshotCreator !== undefined ? snapshotCreator : eventOwner);
    if (target.deleted) return;

    const newer = reaction.countVersion > BigInt(target.version);
    const likes = newer ? clampInt(reaction.count) : target.likes;
    const owner = snapshotCreator !== undefined ? snapshotCreator : eventOwner && (newer || !target.owner_id) ? eventOwner : target.owner_id;
    if (likes === target.likes && owner === target.owner_id && !newer) return;

    const changes = new CounterChanges();
    changes.add(target.owner_id, { likes: -BigInt(target.likes) });
    changes.add(owner, { likes: BigInt(likes) });
    await manager.query(
      'UPDATE like_targets SET likes = $3, version = greatest(version, $4::bigint), owner_id = $5 WHERE target_type = $1 AND target_id = $2',
      [type, targetId, likes, reaction.countVersion.toString(), owner],
    );
    await changes.apply(manager);
  }),

  on(SocialEvents.PostDeleted, async (post, _meta, manager) => {
    const postId = uuidOrNull(post.postId);
    if (!postId) return;
    // A tombstone even for a post nobody liked yet: a like overtaken by the deletion stays out.
    const target = await lockTarget(manager, 'post', postId, uuidOrNull(post.userId));
    if (target.deleted) return;
    const changes = new CounterChanges();
    changes.add(target.owner_id, { likes: -BigInt(target.likes) });
    await manager.query("UPDATE like_targets SET deleted = true WHERE target_type = 'post' AND target_id = $1", [postId]);
    await changes.apply(manager);
  }),

  on(TimelinesEvents.TimelineSnapshot, async (snapshot, _meta, manager) => {
    const timelineId = uuidOrNull(snapshot.timelineId);
    if (!timelineId || snapshot.revision <= 0n) return;
    const stored = await lockTimeline(manager, timelineId);
    if (stored.deleted || snapshot.revision <= BigInt(stored.revision)) return;

    const creator = uuidOrNull(snapshot.creatorId);
    const next = {
      views: (snapshot.views < 0n ? 0n : snapshot.views).toString(),
      is_public: snapshot.visibility === Visibility.PUBLIC && snapshot.status === TimelineStatus.PUBLISHED,
      revision: snapshot.revision.toString(),
      deleted: false,
    };
    const changes = new CounterChanges();
    changes.add(stored.creator_id, negate(timelineCounts(stored)));
    changes.add(creator, timelineCounts(next));
    await manager.query(
      'UPDATE profile_timelines SET creator_id = $2, views = $3, is_public = $4, revision = $5 WHERE timeline_id = $1',
      [timelineId, creator, next.views, next.is_public, next.revision],
    );

    // The timeline's likes follow its creator (an ownership transfer moves them).
    const target = await existingTarget(manager, 'timeline', timelineId);
    if (target && !target.deleted && target.owner_id !== creator) {
      changes.add(target.owner_id, { likes: -BigInt(target.likes) });
      changes.add(creator, { likes: BigInt(target.likes) });
      await manager.query("UPDATE like_targets SET owner_id = $2 WHERE target_type = 'timeline' AND target_id = $1", [timelineId, creator]);
    }
    await changes.apply(manager);
  }),

  on(TimelinesEvents.TimelineDeleted, async (deleted, _meta, manager) => {
    const timelineId = uuidOrNull(deleted.timelineId);
    if (!timelineId) return;
    const stored = await lockTimeline(manager, timelineId);
    if (stored.deleted) return;
    const changes = new CounterChanges();
    changes.add(stored.creator_id, negate(timelineCounts(stored)));
    await manager.query('UPDATE profile_timelines SET deleted = true WHERE timeline_id = $1', [timelineId]);
    const target = await existingTarget(manager, 'timeline', timelineId);
    if (target && !target.deleted) {
      changes.add(target.owner_id, { likes: -BigInt(target.likes) });
      await manager.query("UPDATE like_targets SET deleted = true WHERE target_type = 'timeline' AND target_id = $1", [timelineId]);
    }
    await changes.apply(manager);
  }),
];
