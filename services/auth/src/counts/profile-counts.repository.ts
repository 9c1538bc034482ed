import type { EntityManager } from 'typeorm';
import type { LikeTargetType } from './like-target.entity.js';

/** What profile_timelines holds of a timeline: what was last applied to its creator's counters. */
export interface StoredTimeline {
  creatorId: string | null;
  views: bigint;
  isPublic: boolean;
  /** 0 before its first snapshot. */
  revision: bigint;
  deleted: boolean;
}

/** What like_targets holds of a liked post or timeline. */
export interface StoredTarget {
  ownerId: string | null;
  likes: number;
  version: bigint;
  deleted: boolean;
}

/** Differences to one person's counters. */
export interface CounterDelta {
  likes: bigint;
  views: bigint;
  timelines: bigint;
  publicTimelines: bigint;
}

export type FollowCount = 'followers' | 'following';

interface RawTimeline {
  creator_id: string | null;
  views: string;
  is_public: boolean;
  revision: string;
  deleted: boolean;
}

interface RawTarget {
  owner_id: string | null;
  likes: number;
  version: string;
  deleted: boolean;
}

const toTarget = (row: RawTarget): StoredTarget => ({ ownerId: row.owner_id, likes: row.likes, version: BigInt(row.version), deleted: row.deleted });

/**
 * The rows profile counts are kept from (profile_timelines, like_targets) and the counters on
 * `users` they add up to. Every method runs in the transaction of the event being handled.
 */
export class ProfileCountsRepository {
  /** A timeline's row, created empty (revision 0) if new, locked until the transaction ends. */
  async lockTimeline(manager: EntityManager, timelineId: string): Promise<StoredTimeline> {
    await manager.query('INSERT INTO profile_timelines (timeline_id) VALUES ($1) ON CONFLICT DO NOTHING', [timelineId]);
    const [row] = (await manager.query('SELECT creator_id, views, is_public, revision, deleted FROM profile_timelines WHERE timeline_id = $1 FOR UPDATE', [timelineId])) as RawTimeline[];
    return { creatorId: row!.creator_id, views: BigInt(row!.views), isPublic: row!.is_public, revision: BigInt(row!.revision), deleted: row!.deleted };
  }

  async updateTimeline(manager: EntityManager, timelineId: string, next: Omit<StoredTimeline, 'deleted'>): Promise<void> {
    await manager.query('UPDATE profile_timelines SET creator_id = $2, views = $3, is_public = $4, revision = $5 WHERE timeline_id = $1', [
      timelineId,
      next.creatorId,
      next.views.toString(),
      next.isPublic,
      next.revision.toString(),
    ]);
  }

  async markTimelineDeleted(manager: EntityManager, timelineId: string): Promise<void> {
    await manager.query('UPDATE profile_timelines SET deleted = true WHERE timeline_id = $1', [timelineId]);
  }

  /** A target's row, created empty (owned by `ownerId`) if new, locked until the transaction ends. */
  async lockTarget(manager: EntityManager, type: LikeTargetType, targetId: string, ownerId: string | null): Promise<StoredTarget> {
    await manager.query('INSERT INTO like_targets (target_type, target_id, owner_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [type, targetId, ownerId]);
    return (await this.lockExistingTarget(manager, type, targetId))!;
  }

  /** A target's row if there is one, locked until the transaction ends. */
  async lockExistingTarget(manager: EntityManager, type: LikeTargetType, targetId: string): Promise<StoredTarget | undefined> {
    const [row] = (await manager.query('SELECT owner_id, likes, version, deleted FROM like_targets WHERE target_type = $1 AND target_id = $2 FOR UPDATE', [type, targetId])) as RawTarget[];
    return row && toTarget(row);
  }

  /** Sets a target's likes and owner; its version only grows. */
  async updateTarget(manager: EntityManager, type: LikeTargetType, targetId: string, change: { likes: number; version: bigint; ownerId: string | null }): Promise<void> {
    await manager.query('UPDATE like_targets SET likes = $3, version = greatest(version, $4::bigint), owner_id = $5 WHERE target_type = $1 AND target_id = $2', [
      type,
      targetId,
      change.likes,
      change.version.toString(),
      change.ownerId,
    ]);
  }

  async setTargetOwner(manager: EntityManager, type: LikeTargetType, targetId: string, ownerId: string | null): Promise<void> {
    await manager.query('UPDATE like_targets SET owner_id = $3 WHERE target_type = $1 AND target_id = $2', [type, targetId, ownerId]);
  }

  async markTargetDeleted(manager: EntityManager, type: LikeTargetType, targetId: string): Promise<void> {
    await manager.query('UPDATE like_targets SET deleted = true WHERE target_type = $1 AND target_id = $2', [type, targetId]);
  }

  /** Moves one person's counters by a difference. */
  async addToCounters(manager: EntityManager, userId: string, d: CounterDelta): Promise<void> {
    await manager.query(
      `UPDATE users
          SET total_likes = total_likes + $2, total_views = total_views + $3,
              timelines_count = timelines_count + $4, public_timelines_count = public_timelines_count + $5
        WHERE id = $1`,
      [userId, d.likes.toString(), d.views.toString(), d.timelines.toString(), d.publicTimelines.toString()],
    );
  }

  /** Sets one of a person's follow counts, only from a version newer than the stored one. */
  async setFollowCount(manager: EntityManager, which: FollowCount, userId: string, count: number, version: bigint): Promise<void> {
    const column = which === 'followers' ? 'followers' : 'following';
    await manager.query(`UPDATE users SET ${column}_count = $2, ${column}_version = $3 WHERE id = $1 AND ${column}_version < $3`, [userId, count, version.toString()]);
  }
}
