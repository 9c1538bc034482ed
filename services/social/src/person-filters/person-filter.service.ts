import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor, type EventWriter, isUuid, mutedWordExpiry, normalizeMutedWord, type OutboxContext, type Page, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { FollowRequestState, SocialEvents } from '@timeliner/proto';
import type { FollowRequestRepository } from '../follows/follow-request.repository.js';
import type { FollowRepository } from '../follows/follow.repository.js';
import { announceFollowChange, announceFollowRequest } from '../follows/follow.service.js';
import { PERSON_LIST_PAGE_SIZE, type PersonListQueryDto } from '../pagination/page-queries.js';
import { type BlockStatusDto, type FilteredPersonDto, mapFilteredPerson, mapMutedWord, MAX_MUTED_WORDS, type MutedWordDto, type MuteStatusDto, type MuteWordDto } from './person-filter.dto.js';
import type { PersonFilterKind, PersonFilterRepository } from './person-filter.repository.js';

const USER_NOT_FOUND = 'User not found';

/** Puts a person's whole list of muted words in the outbox (the read models replace theirs with it). */
export async function announceMutedWords(events: EventWriter, repository: PersonFilterRepository, manager: EntityManager, userId: string, context: OutboxContext): Promise<void> {
  const words = await repository.words(userId, manager);
  await events.add(manager, SocialEvents.MutedWordsChanged, {
    userId,
    words: words.map((w) => ({ id: w.id, word: w.word, ...(w.expiresAt ? { expiresAt: timestampFromDate(w.expiresAt) } : {}) })),
    version: await repository.nextVersion(manager),
  }, context);
}

/**
 * Blocks and mutes (issue 28). Blocking someone removes the follows both ways and pending follow
 * requests, then neither sees the other anywhere (read-rules/person-filter-sql.ts, the copies of the
 * other services from BlockChanged). Muting an account or a word hides it from the muter only;
 * the muted person is never told. Every change that really happened is announced, versioned.
 */
export class PersonFilterService {
  constructor(
    private readonly transactions: Transactions,
    private readonly filters: PersonFilterRepository,
    private readonly follows: FollowRepository,
    private readonly requests: FollowRequestRepository,
    private readonly events: EventWriter,
  ) {}

  async block(caller: SignedInCaller, rawId: string, active: boolean): Promise<BlockStatusDto> {
    const otherId = await this.requireOther(caller, rawId, 'You cannot block yourself');
    const me = caller.userId.toLowerCase();
    const context = { actorUserId: caller.userId, requestId: caller.requestId };
    await this.transactions.run(async (manager) => {
      if (active) {
        // The follows both ways go first, each announced as an unfollow.
        for (const [follower, followee] of [[me, otherId], [otherId, me]] as const) {
          const change = await this.follows.set(manager, follower, followee, false);
          if (change) await announceFollowChange(this.events, manager, change, context);
        }
        // Pending follow requests either way are withdrawn, each announced (the owner's count goes down).
        for (const [requesterId, targetId] of [[me, otherId], [otherId, me]] as const) {
          if (await this.requests.remove(manager, requesterId, targetId)) {
            await announceFollowRequest(this.events, manager, this.requests, { requesterId, targetId, state: FollowRequestState.CANCELLED }, context);
          }
        }
      }
      const change = await this.filters.set(manager, 'block', me, otherId, active);
      if (change) await this.events.add(manager, SocialEvents.BlockChanged, { blockerId: me, blockedId: otherId, active, version: change.version, at: timestampFromDate(new Date()) }, context);
    });
    return { blocked: active };
  }

  async muteStatus(caller: SignedInCaller, rawId: string): Promise<MuteStatusDto> {
    const otherId = await this.requireOther(caller, rawId, 'You cannot mute yourself');
    return { muted: await this.filters.has('mute', caller.userId.toLowerCase(), otherId) };
  }

  async mute(caller: SignedInCaller, rawId: string, active: boolean): Promise<MuteStatusDto> {
    const otherId = await this.requireOther(caller, rawId, 'You cannot mute yourself');
    const me = caller.userId.toLowerCase();
    await this.transactions.run(async (manager) => {
      const change = await this.filters.set(manager, 'mute', me, otherId, active);
      if (change) {
        await this.events.add(manager, SocialEvents.MuteChanged, { muterId: me, mutedId: otherId, active, version: change.version, at: timestampFromDate(new Date()) }, { actorUserId: caller.userId, requestId: caller.requestId });
      }
    });
    return { muted: active };
  }

  blocked(caller: SignedInCaller, query: PersonListQueryDto): Promise<Page<FilteredPersonDto>> {
    return this.list('block', caller, query);
  }

  muted(caller: SignedInCaller, query: PersonListQueryDto): Promise<Page<FilteredPersonDto>> {
    return this.list('mute', caller, query);
  }

  async words(caller: SignedInCaller): Promise<MutedWordDto[]> {
    return (await this.filters.words(caller.userId.toLowerCase())).map(mapMutedWord);
  }

  async muteWord(caller: SignedInCaller, body: MuteWordDto): Promise<MutedWordDto> {
    const word = normalizeMutedWord(body.word);
    if (!word) throw new BadRequestException(body.word.trim() === '' ? 'Word is required' : 'A muted word may be at most 100 characters');
    const me = caller.userId.toLowerCase();
    return this.transactions.run(async (manager) => {
      await this.filters.lockWords(manager, me);
      if ((await this.filters.countWords(manager, me)) >= MAX_MUTED_WORDS && !(await this.filters.words(me, manager)).some((w) => w.word === word)) {
        throw new BadRequestException(`You can mute at most ${MAX_MUTED_WORDS} words`);
      }
      const row = await this.filters.addWord(manager, me, word, mutedWordExpiry(body.duration ?? 'forever', new Date()));
      await announceMutedWords(this.events, this.filters, manager, me, { actorUserId: caller.userId, requestId: caller.requestId });
      return mapMutedWord(row);
    });
  }

  async unmuteWord(caller: SignedInCaller, rawId: string): Promise<void> {
    if (!isUuid(rawId)) throw new NotFoundException('Muted word not found');
    const me = caller.userId.toLowerCase();
    await this.transactions.run(async (manager) => {
      await this.filters.lockWords(manager, me);
      if (!(await this.filters.removeWord(manager, me, rawId.toLowerCase()))) throw new NotFoundException('Muted word not found');
      await announceMutedWords(this.events, this.filters, manager, me, { actorUserId: caller.userId, requestId: caller.requestId });
    });
  }

  private async list(kind: PersonFilterKind, caller: SignedInCaller, query: PersonListQueryDto): Promise<Page<FilteredPersonDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const limit = query.limit ?? PERSON_LIST_PAGE_SIZE;
    const rows = await this.filters.list(kind, caller.userId.toLowerCase(), limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items: items.map(mapFilteredPerson), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  /** The other person's id, lower-cased: 404 for a malformed id or someone unknown, 400 for oneself. */
  private async requireOther(caller: SignedInCaller, rawId: string, selfMessage: string): Promise<string> {
    if (!isUuid(rawId)) throw new NotFoundException(USER_NOT_FOUND);
    const id = rawId.toLowerCase();
    if (id === caller.userId.toLowerCase()) throw new BadRequestException(selfMessage);
    if (!(await this.filters.userExists(id))) throw new NotFoundException(USER_NOT_FOUND);
    return id;
  }
}
