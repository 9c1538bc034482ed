import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Caller, decodeCursor, encodeCursor, type EventWriter, isUuid, type OutboxContext, type Page, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { FollowRequestState, SocialEvents } from '@timeliner/proto';
import { recordActivity, removeActivity } from '../activity/activity-recorder.js';
import { PERSON_LIST_PAGE_SIZE, type PersonListQueryDto } from '../pagination/page-queries.js';
import { requireVisiblePersonLists } from '../people/person-access.js';
import type { PersonRepository } from '../people/person.repository.js';
import { type FollowPersonDto, type FollowStatusDto, mapFollowPerson } from './follow.dto.js';
import type { FollowRequestRepository } from './follow-request.repository.js';
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
 * Puts a change of a follow request in the outbox with the target's pending count after it (a
 * request is not a follow: no FollowChanged, no count moves).
 */
export async function announceFollowRequest(
  events: EventWriter,
  manager: EntityManager,
  requests: FollowRequestRepository,
  change: { requesterId: string; targetId: string; state: FollowRequestState },
  context: OutboxContext,
): Promise<void> {
  const pending = await requests.recount(manager, change.targetId);
  await events.add(manager, SocialEvents.FollowRequestChanged, {
    requesterId: change.requesterId,
    targetId: change.targetId,
    state: change.state,
    pendingCount: BigInt(pending.count),
    version: pending.version,
    at: timestampFromDate(new Date()),
  }, context);
}

/**
 * Following people (spec 001 sections 2, 3 and 7). Following a private account is a request
 * (follow_requests) the owner approves or declines (follow-request.service.ts); until then the
 * requester is not a follower and no count moves. Anyone may read whether they follow someone,
 * the counts and the lists (a private account's lists: only itself and its followers, see
 * people/person-access.ts); signed in, they may follow or unfollow anyone this service knows
 * (the users read model), never themselves. Toggles are idempotent and only a real change is
 * announced (FollowChanged, with both people's versioned counts).
 */
export class FollowService {
  constructor(
    private readonly transactions: Transactions,
    private readonly follows: FollowRepository,
    private readonly people: PersonRepository,
    private readonly events: EventWriter,
    private readonly requests: FollowRequestRepository,
  ) {}

  async status(caller: Caller, rawId: string): Promise<FollowStatusDto> {
    const userId = await this.requireUser(rawId);
    const callerId = caller.userId?.toLowerCase();
    const [isFollowing, isRequested, counts] = await Promise.all([this.follows.isFollowing(callerId, userId), this.requests.isRequested(callerId, userId), this.follows.counts(userId)]);
    return { isFollowing, isRequested, ...counts };
  }

  /**
   * Follows (`active`) or unfollows the person; their counts after it. Following a private account
   * the caller does not follow yet asks it instead (isRequested); unfollowing also takes a pending
   * request back.
   */
  async set(caller: SignedInCaller, rawId: string, active: boolean): Promise<FollowStatusDto> {
    if (!isUuid(rawId)) throw new NotFoundException(USER_NOT_FOUND);
    const followeeId = rawId.toLowerCase();
    if (followeeId === caller.userId.toLowerCase()) throw new BadRequestException('You cannot follow yourself');
    await this.requireUser(followeeId);
    const followerId = caller.userId.toLowerCase();
    const context = { actorUserId: caller.userId, requestId: caller.requestId };
    return this.transactions.run(async (manager) => {
      // Requests exist for private accounts only (turning public approves them all), so a public
      // account's follow takes no more than the two count rows' locks it always took. A private
      // one is read again under those locks: a concurrent switch either way is then seen.
      if (await this.follows.isPrivate(manager, followeeId)) {
        await this.follows.lock(manager, [followerId, followeeId]);
        const stillPrivate = await this.follows.isPrivate(manager, followeeId);
        if (stillPrivate && active && !(await this.follows.isFollowing(followerId, followeeId, manager))) {
          if (await this.requests.add(manager, followerId, followeeId)) {
            await announceFollowRequest(this.events, manager, this.requests, { requesterId: followerId, targetId: followeeId, state: FollowRequestState.REQUESTED }, context);
          }
          return { isFollowing: false, isRequested: true, ...(await this.follows.counts(followeeId, manager)) };
        }
        if (!active && (await this.requests.remove(manager, followerId, followeeId))) {
          await announceFollowRequest(this.events, manager, this.requests, { requesterId: followerId, targetId: followeeId, state: FollowRequestState.CANCELLED }, context);
        }
      }
      const change = await this.follows.set(manager, followerId, followeeId, active);
      if (change) await announceFollowChange(this.events, manager, change, context);
      // Read under the lock: the answer is the state this request left.
      return { isFollowing: active, isRequested: false, ...(await this.follows.counts(followeeId, manager)) };
    });
  }

  followers(caller: Caller, rawId: string, query: PersonListQueryDto): Promise<Page<FollowPersonDto>> {
    return this.list('followers', caller, rawId, query);
  }

  following(caller: Caller, rawId: string, query: PersonListQueryDto): Promise<Page<FollowPersonDto>> {
    return this.list('following', caller, rawId, query);
  }

  private async list(direction: FollowDirection, caller: Caller, rawId: string, query: PersonListQueryDto): Promise<Page<FollowPersonDto>> {
    // A private account's lists: itself and its followers only (403 otherwise).
    const userId = await requireVisiblePersonLists(this.people, caller.userId, rawId);
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const limit = query.limit ?? PERSON_LIST_PAGE_SIZE;
    const rows = await this.follows.list(direction, userId, caller.userId?.toLowerCase(), limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map(mapFollowPerson),
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
