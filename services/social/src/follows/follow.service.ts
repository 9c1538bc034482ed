import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Caller, EventWriter, OutboxContext, SignedInCaller } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import { recordActivity, removeActivity } from '../activity/activity-recorder.js';
import { isUuid } from '../ids.js';
import { requireVisiblePersonLists } from '../people/person-access.js';
import { decodeCursor, encodeCursor, type Page } from '../pagination/cursor.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import { FOLLOW_PAGE_SIZE, type FollowPageQueryDto, type FollowPersonDto, type FollowStatusDto } from './follow.dto.js';
import type { FollowChange, FollowDirection, FollowRepository } from './follow.repository.js';

const USER_NOT_FOUND = 'User not found';

/**
 * Puts a real change in the outbox, in the transaction that made it, and records it in the
 * follower's activity (a follow adds followed_user, an unfollow takes it back).
 */
export async function announceFollowChange(events: EventWriter, manager: EntityManager, change: FollowChange, context: OutboxContext): Promise<string> {
  const eventId = await events.add(manager, SocialEvents.FollowChanged, {
    followerId: change.followerId,
    followeeId: change.followeeId,
    active: change.active,
    followersCount: BigInt(change.followersCount),
    followersVersion: change.followersVersion,
    followingCount: BigInt(change.followingCount),
    followingVersion: change.followingVersion,
    at: timestampFromDate(new Date()),
  }, context);
  if (change.active) await recordActivity(manager, { sourceEventId: eventId, userId: change.followerId, activityType: 'followed_user', targetType: 'user', targetId: change.followeeId });
  else await removeActivity(manager, change.followerId, 'followed_user', change.followeeId);
  return eventId;
}

/**
 * Following people (spec 001 sections 2, 3 and 7). Anyone may read whether they follow someone,
 * the counts and the lists (a private account's lists: only itself and its followers, see
 * people/person-access.ts); signed in, they may follow or unfollow anyone this service knows
 * (the users read model), never themselves. Toggles are idempotent and only a real change is
 * announced (FollowChanged, with both people's versioned counts).
 */
export class FollowService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly follows: FollowRepository,
    private readonly events: EventWriter,
  ) {}

  async status(caller: Caller, rawId: string): Promise<FollowStatusDto> {
    const userId = await this.requireUser(rawId);
    const [isFollowing, counts] = await Promise.all([this.follows.isFollowing(caller.userId, userId), this.follows.counts(userId)]);
    return { isFollowing, ...counts };
  }

  /** Follows (`active`) or unfollows the person; their counts after it. */
  async set(caller: SignedInCaller, rawId: string, active: boolean): Promise<FollowStatusDto> {
    if (!isUuid(rawId)) throw new NotFoundException(USER_NOT_FOUND);
    const followeeId = rawId.toLowerCase();
    if (followeeId === caller.userId.toLowerCase()) throw new BadRequestException('You cannot follow yourself');
    await this.requireUser(followeeId);
    const followerId = caller.userId.toLowerCase();
    const { change, counts } = await this.dataSource.transaction(async (manager) => {
      const done = await this.follows.set(manager, followerId, followeeId, active);
      if (done) await announceFollowChange(this.events, manager, done, { actorUserId: caller.userId, requestId: caller.requestId });
      // Read under the lock: the answer is the state this request left.
      return { change: done, counts: await this.follows.counts(followeeId, manager) };
    });
    if (change) this.events.committed();
    return { isFollowing: active, ...counts };
  }

  followers(caller: Caller, rawId: string, query: FollowPageQueryDto): Promise<Page<FollowPersonDto>> {
    return this.list('followers', caller, rawId, query);
  }

  following(caller: Caller, rawId: string, query: FollowPageQueryDto): Promise<Page<FollowPersonDto>> {
    return this.list('following', caller, rawId, query);
  }

  private async list(direction: FollowDirection, caller: Caller, rawId: string, query: FollowPageQueryDto): Promise<Page<FollowPersonDto>> {
    // A private account's lists: itself and its followers only (403 otherwise).
    const userId = await requireVisiblePersonLists(this.dataSource, caller.userId, rawId);
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const limit = query.limit ?? FOLLOW_PAGE_SIZE;
    const rows = await this.follows.list(direction, userId, caller.userId?.toLowerCase(), limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map((row) => {
        const { id, username, displayName, avatar } = mapUserSummary(row.userId, row.person);
        return { id, username, displayName, avatar, isFollowing: row.isFollowing, followedAt: row.followedAt.toISOString() };
      }),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}),
    };
  }

  /** The person's id, lower-cased; 404 for a malformed id or someone this service does not know. */
  private async requireUser(rawId: string): Promise<string> {
    if (!isUuid(rawId)) throw new NotFoundException(USER_NOT_FOUND);
    const userId = rawId.toLowerCase();
    if (!(await this.follows.userExists(userId))) throw new NotFoundException(USER_NOT_FOUND);
    return userId;
  }
}
