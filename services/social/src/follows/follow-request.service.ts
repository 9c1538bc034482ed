import { NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor, type EventWriter, isUuid, type OutboxContext, type Page, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { FollowRequestState } from '@timeliner/proto';
import { PERSON_LIST_PAGE_SIZE, type PersonListQueryDto } from '../pagination/page-queries.js';
import { type FollowRequestCountDto, type FollowRequestDto, mapFollowRequest } from './follow-request.dto.js';
import { FollowRequestRepository } from './follow-request.repository.js';
import { FollowRepository } from './follow.repository.js';
import { announceFollowChange, announceFollowRequest } from './follow.service.js';

export const FOLLOW_REQUEST_NOT_FOUND = 'Follow request not found';

/**
 * Approves one pending request under both people's count locks: the request goes, the follow is
 * made and announced (FollowChanged, the counts move now), then FollowRequestChanged APPROVED.
 * False when there was no such request.
 */
export async function approveFollowRequest(events: EventWriter, manager: EntityManager, requesterId: string, targetId: string, context: OutboxContext): Promise<boolean> {
  const follows = new FollowRepository(manager.connection);
  const requests = new FollowRequestRepository(manager.connection);
  await follows.lock(manager, [requesterId, targetId]);
  if (!(await requests.remove(manager, requesterId, targetId))) return false;
  const change = await follows.set(manager, requesterId, targetId, true);
  if (change) await announceFollowChange(events, manager, change, context);
  await announceFollowRequest(events, manager, requests, { requesterId, targetId, state: FollowRequestState.APPROVED }, context);
  return true;
}

/** An account turned public: every pending request is approved, oldest first. */
export async function approveAllFollowRequests(events: EventWriter, manager: EntityManager, targetId: string, context: OutboxContext): Promise<number> {
  const requests = new FollowRequestRepository(manager.connection);
  let approved = 0;
  for (const requesterId of await requests.requesters(manager, targetId)) {
    if (await approveFollowRequest(events, manager, requesterId, targetId, context)) approved++;
  }
  return approved;
}

/** A deleted account's requests both ways go; the accounts it had asked have their counts announced. */
export async function forgetFollowRequests(events: EventWriter, manager: EntityManager, userId: string, context: OutboxContext): Promise<void> {
  const requests = new FollowRequestRepository(manager.connection);
  for (const targetId of await requests.forget(manager, userId)) {
    await announceFollowRequest(events, manager, requests, { requesterId: userId, targetId, state: FollowRequestState.CANCELLED }, context);
  }
}

/**
 * The owner's side of follow requests: the pending list and count, approve and decline. Only the
 * caller's own requests are reachable; someone else's, or one that is gone, is 404.
 */
export class FollowRequestService {
  constructor(
    private readonly transactions: Transactions,
    private readonly requests: FollowRequestRepository,
    private readonly events: EventWriter,
  ) {}

  async list(caller: SignedInCaller, query: PersonListQueryDto): Promise<Page<FollowRequestDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const limit = query.limit ?? PERSON_LIST_PAGE_SIZE;
    const rows = await this.requests.list(caller.userId.toLowerCase(), limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items: items.map(mapFollowRequest), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  async count(caller: SignedInCaller): Promise<FollowRequestCountDto> {
    return { count: await this.requests.pendingCount(caller.userId.toLowerCase()) };
  }

  /** Approves the request of `rawId`: they follow the caller from now on. The pending count after it. */
  async approve(caller: SignedInCaller, rawId: string): Promise<FollowRequestCountDto> {
    const requesterId = this.requireId(rawId);
    const targetId = caller.userId.toLowerCase();
    await this.transactions.run(async (manager) => {
      if (!(await approveFollowRequest(this.events, manager, requesterId, targetId, this.context(caller)))) throw new NotFoundException(FOLLOW_REQUEST_NOT_FOUND);
    });
    return this.count(caller);
  }

  /** Declines the request of `rawId` (they are not told, and may ask again). The pending count after it. */
  async decline(caller: SignedInCaller, rawId: string): Promise<FollowRequestCountDto> {
    const requesterId = this.requireId(rawId);
    const targetId = caller.userId.toLowerCase();
    await this.transactions.run(async (manager) => {
      if (!(await this.requests.remove(manager, requesterId, targetId))) throw new NotFoundException(FOLLOW_REQUEST_NOT_FOUND);
      await announceFollowRequest(this.events, manager, this.requests, { requesterId, targetId, state: FollowRequestState.DECLINED }, this.context(caller));
    });
    return this.count(caller);
  }

  private requireId(rawId: string): string {
    if (!isUuid(rawId)) throw new NotFoundException(FOLLOW_REQUEST_NOT_FOUND);
    return rawId.toLowerCase();
  }

  private context(caller: SignedInCaller): OutboxContext {
    return { actorUserId: caller.userId, requestId: caller.requestId };
  }
}
