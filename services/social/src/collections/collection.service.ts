import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { type Caller, decodeCursor, encodeCursor, isUuid, type Page, type SignedInCaller, TIMELINE_NOT_FOUND, type Transactions } from '@timeliner/platform';
import type { TimelineSummary } from '../access/timeline-summary.repository.js';
import type { VisibleTimelines } from '../access/visible-timelines.js';
import { DEFAULT_PAGE_SIZE, type PageQueryDto } from '../pagination/page-queries.js';
import {
  type CollectionDto, type CollectionTimelineDto, type CreateCollectionDto, mapCollection, mapCollectionItem, ORDER_MISMATCH, type TimelineCollectionDto,
  type UpdateCollectionDto,
} from './collection.dto.js';
import type { CollectionItemRow, CollectionRepository, CollectionRow } from './collection.repository.js';

export const COLLECTION_NOT_FOUND = 'Collection not found';
export const ONLY_OWNER = 'Only the owner can change this collection';

/** A timeline the read model has not heard of yet: what is known of it. */
const unknownSummary = (id: string): TimelineSummary => ({ id, title: '', description: '', videoCount: 0, duration: 0, creatorId: '', creatorName: '', coverMediaId: null });

/** Blank descriptions are none. */
const descriptionOf = (value: string | null | undefined): string | null => (value ? value : null);

/**
 * Collections (spec 001 sections 2, 3, 5, 6, 7): a person's named lists of timelines. The owner
 * always sees theirs; others see a public one and get 404 for a private one, as if it did not
 * exist; only the owner changes one (403 for others who can see it). A timeline the viewer may
 * not see is left out of a collection's list, not shown as a hole, and can only be added by
 * someone who sees it. Adding twice changes nothing; removing what is not there changes nothing.
 */
export class CollectionService {
  constructor(
    private readonly transactions: Transactions,
    private readonly collections: CollectionRepository,
    private readonly timelines: VisibleTimelines,
  ) {}

  /** The caller's collections, newest first. */
  async mine(caller: SignedInCaller, query: PageQueryDto): Promise<Page<CollectionDto>> {
    return this.page(caller, query, undefined, (row) => mapCollection(row));
  }

  /** The caller's collections, newest first, each saying whether it holds the timeline. */
  async forTimeline(caller: SignedInCaller, rawTimelineId: string, query: PageQueryDto): Promise<Page<TimelineCollectionDto>> {
    const timelineId = await this.requireTimeline(rawTimelineId, caller.userId);
    return this.page(caller, query, timelineId, (row) => ({ ...mapCollection(row), contains: row.contains }));
  }

  async create(caller: SignedInCaller, dto: CreateCollectionDto): Promise<CollectionDto> {
    const id = randomUUID();
    await this.collections.insert({
      id,
      userId: caller.userId.toLowerCase(),
      name: dto.name,
      description: descriptionOf(dto.description),
      isPublic: dto.isPublic ?? true,
    });
    return mapCollection((await this.collections.find(id))!);
  }

  async get(caller: Caller, rawId: string): Promise<CollectionDto> {
    return mapCollection(await this.readable(caller, rawId));
  }

  async update(caller: SignedInCaller, rawId: string, dto: UpdateCollectionDto): Promise<CollectionDto> {
    return this.transactions.run(async (manager) => {
      const collection = await this.owned(caller, await this.collections.lock(manager, this.idOf(rawId)), manager);
      await this.collections.update(manager, collection.id, {
        name: dto.name ?? collection.name,
        description: dto.description === undefined ? collection.description : descriptionOf(dto.description),
        isPublic: dto.isPublic ?? collection.isPublic,
      });
      return mapCollection((await this.collections.find(collection.id, manager))!);
    });
  }

  async delete(caller: SignedInCaller, rawId: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const collection = await this.owned(caller, await this.collections.lock(manager, this.idOf(rawId)), manager);
      await this.collections.delete(manager, collection.id);
    });
  }

  /** The collection's timelines the caller may see, in order. */
  async timelinesOf(caller: Caller, rawId: string): Promise<CollectionTimelineDto[]> {
    const collection = await this.readable(caller, rawId);
    return this.visibleItems(caller, await this.collections.items(collection.id));
  }

  /** Appends a timeline the caller may see; `created` false when it was there already. */
  async add(caller: SignedInCaller, rawId: string, rawTimelineId: string): Promise<{ created: boolean; item: CollectionTimelineDto }> {
    const collectionId = this.idOf(rawId);
    // Ownership first (no access question for someone who may not change the collection).
    await this.owned(caller, await this.collections.find(collectionId));
    const timelineId = await this.requireTimeline(rawTimelineId, caller.userId);
    const { created, item } = await this.transactions.run(async (manager) => {
      await this.owned(caller, await this.collections.lockForAdd(manager, collectionId, timelineId), manager);
      return this.collections.add(manager, collectionId, timelineId);
    });
    // Deleted between the access check and the add.
    if (!item) throw new NotFoundException(TIMELINE_NOT_FOUND);
    const summaries = await this.timelines.summaries([timelineId], caller.userId);
    return { created, item: mapCollectionItem(item, summaries.get(timelineId) ?? unknownSummary(timelineId)) };
  }

  /** Takes a timeline out; nothing there, nothing changes. */
  async remove(caller: SignedInCaller, rawId: string, rawTimelineId: string): Promise<void> {
    const collectionId = this.idOf(rawId);
    await this.transactions.run(async (manager) => {
      await this.owned(caller, await this.collections.lock(manager, collectionId), manager);
      if (isUuid(rawTimelineId)) await this.collections.remove(manager, collectionId, rawTimelineId.toLowerCase());
    });
  }

  /** Puts the collection's timelines in the order given; the list as the caller sees it after. */
  async reorder(caller: SignedInCaller, rawId: string, timelineIds: string[]): Promise<CollectionTimelineDto[]> {
    const collectionId = this.idOf(rawId);
    const items = await this.transactions.run(async (manager) => {
      await this.owned(caller, await this.collections.lock(manager, collectionId), manager);
      if (!(await this.collections.reorder(manager, collectionId, timelineIds.map((id) => id.toLowerCase())))) throw new BadRequestException(ORDER_MISMATCH);
      return this.collections.items(collectionId, manager);
    });
    return this.visibleItems(caller, items);
  }

  private async visibleItems(caller: Caller, items: CollectionItemRow[]): Promise<CollectionTimelineDto[]> {
    const summaries = await this.timelines.summaries(items.map((item) => item.timelineId), caller.userId);
    return items.flatMap((item) => {
      const summary = summaries.get(item.timelineId);
      return summary ? [mapCollectionItem(item, summary)] : [];
    });
  }

  private async page<T>(caller: SignedInCaller, query: PageQueryDto, timelineId: string | undefined, map: (row: CollectionRow & { contains: boolean }) => T): Promise<Page<T>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.collections.list(caller.userId.toLowerCase(), limit + 1, after, timelineId);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(map), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  /** The timeline's id, lower-cased, if the caller may see it; 404 'Timeline not found' otherwise. */
  private async requireTimeline(rawId: string, userId: string | undefined): Promise<string> {
    if (!isUuid(rawId)) throw new NotFoundException(TIMELINE_NOT_FOUND);
    const timelineId = rawId.toLowerCase();
    if (!(await this.timelines.canView(timelineId, userId))) throw new NotFoundException(TIMELINE_NOT_FOUND);
    return timelineId;
  }

  /** The collection id, lower-cased; 404 for a malformed one. */
  private idOf(rawId: string): string {
    if (!isUuid(rawId)) throw new NotFoundException(COLLECTION_NOT_FOUND);
    return rawId.toLowerCase();
  }

  /** A collection the caller may read: theirs, or a public one (of a private account: for its approved followers only). */
  private async readable(caller: Caller, rawId: string): Promise<CollectionRow> {
    const collection = await this.collections.find(this.idOf(rawId));
    if (!collection || (!collection.isPublic && collection.userId !== caller.userId?.toLowerCase())) throw new NotFoundException(COLLECTION_NOT_FOUND);
    if (!(await this.collections.seenDespitePrivacy(collection.userId, caller.userId?.toLowerCase()))) throw new NotFoundException(COLLECTION_NOT_FOUND);
    return collection;
  }

  /**
   * The caller's own collection; 404 when it is missing or someone else's the caller may not read (private, of a
   * private account they do not follow, of a suspended person), 403 when someone else's they may read.
   */
  private async owned(caller: SignedInCaller, collection: CollectionRow | null, manager?: EntityManager): Promise<CollectionRow> {
    const callerId = caller.userId.toLowerCase();
    if (!collection || (!collection.isPublic && collection.userId !== callerId)) throw new NotFoundException(COLLECTION_NOT_FOUND);
    if (collection.userId !== callerId) {
      if (!(await this.collections.seenDespitePrivacy(collection.userId, callerId, manager))) throw new NotFoundException(COLLECTION_NOT_FOUND);
      throw new ForbiddenException(ONLY_OWNER);
    }
    return collection;
  }
}
