import { BadRequestException } from '@nestjs/common';
import { decodeCursor, encodeCursor, type Page, type SignedInCaller } from '@timeliner/platform';
import { FEED_READ_HOURS } from '../feed-index/feed-keys.js';
import type { PostCards } from '../posts/post-card.js';
import { mapPost } from '../posts/post.dto.js';
import { FEED_PAGE_SIZE, type FeedItemDto, type FeedQueryDto, mapFeedCard, mapTimeline } from './feed.dto.js';
import type { CardState, FeedCardRow, FeedRepository, FeedSlot, ForYouAfter } from './feed.repository.js';
import { cursorNow, type ForYouSnapshot, type ForYouSnapshots, type SnapshotCard } from './for-you-snapshot.js';

export const FEED_EXPIRED = 'This feed has moved on; reload it to see the latest';

/** Items past the page's end whose state is read too, so a few reported or hidden ones do not cost the database path. */
const SNAPSHOT_RESERVE = 10;
/** The commit margin of the for-you read (feed.repository.ts), plus a second for a slow commit. */
const OWN_CHANGE_MARGIN_MS = 3_000;

/** A snapshot's card with the caller's state and today's counts; null when the card changed since (edited). */
function freshCard(card: SnapshotCard, state: CardState): FeedItemDto | null {
  if (card.post) {
    if (Math.abs(card.post.updatedAt.getTime() - state.updatedMs) > 1) return null;
    const post = { ...card.post, likesCount: state.likesCount, commentsCount: state.commentsCount, liked: state.liked, bookmarked: state.bookmarked };
    return { type: 'post', id: card.slot.id, post: mapPost(post) };
  }
  const timeline = card.timeline!;
  if (Math.abs(timeline.updatedAt.getTime() - state.updatedMs) > 1) return null;
  const lastActivityAt = Math.abs(timeline.lastActivityAt.getTime() - state.lastActivityMs) > 1 ? new Date(state.lastActivityMs) : timeline.lastActivityAt;
  return {
    type: 'timeline',
    id: card.slot.id,
    timeline: mapTimeline({
      ...timeline,
      views: state.views,
      likesCount: state.likesCount,
      commentsCount: state.commentsCount,
      activityScore: state.activityScore,
      lastActivityAt,
      liked: state.liked,
      bookmarked: state.bookmarked,
    }),
  };
}

/**
 * The home feed: posts and timelines interleaved on the server, each with its counts and the
 * caller's own state, so a card needs no lookup of its own. For you sorts by activity band then
 * newest activity in an order that holds for the whole read (feed-keys.ts); following is the
 * people the caller follows and themselves, newest first. Items the caller reported are left out.
 */
export class FeedService {
  constructor(
    private readonly feed: FeedRepository,
    private readonly posts: PostCards,
    private readonly snapshots?: ForYouSnapshots,
  ) {}

  onModuleDestroy(): void {
    this.snapshots?.close();
  }

  async page(caller: SignedInCaller, query: FeedQueryDto): Promise<Page<FeedItemDto>> {
    const limit = query.limit ?? FEED_PAGE_SIZE;
    const tab = query.tab ?? 'for-you';
    if (tab === 'for-you' && !query.cursor && this.snapshots) {
      const page = await this.firstPageFrom(await this.snapshots.get(), caller, limit);
      if (page) return page;
    }
    if (tab === 'following') {
      const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
      const rows = await this.feed.following(caller.userId, after ? { at: after[0] as string, id: after[1] as string } : undefined, limit + 1);
      const shown = rows.slice(0, limit);
      const last = shown.at(-1)?.slot;
      return { items: shown.flatMap(mapFeedCard), ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.at, last.id]) } : {}) };
    }
    const after = this.forYouCursor(query.cursor);
    const slots = await this.feed.forYou(caller.userId, after, limit + 1);
    const shown = slots.slice(0, limit);
    const items = (await this.hydrate(caller, shown)).flatMap(mapFeedCard);
    const last = shown.at(-1);
    return { items, ...(slots.length > limit && last ? { nextCursor: encodeCursor([after.readAt, last.band, last.at, last.id]) } : {}) };
  }

  /**
   * The first for-you page from the shared snapshot and one query for the caller's state; null
   * when the snapshot cannot answer exactly as the database would (an item edited since, too many
   * left out, the caller's own item changed since), and the page is read from the database.
   */
  private async firstPageFrom(snapshot: ForYouSnapshot, caller: SignedInCaller, limit: number): Promise<Page<FeedItemDto> | null> {
    const window = snapshot.cards.slice(0, limit + 1 + SNAPSHOT_RESERVE);
    const since = new Date(Date.parse(snapshot.readAt) - OWN_CHANGE_MARGIN_MS).toISOString();
    const { items: states, ownChanged } = await this.feed.cardState(
      caller.userId,
      window.filter((c) => c.post).map((c) => c.slot.id),
      window.filter((c) => c.timeline).map((c) => c.slot.id),
      since,
    );
    if (ownChanged) return null;
    const stateOf = new Map(states.map((s) => [`${s.type}:${s.id}`, s]));
    const items: FeedItemDto[] = [];
    let last: FeedSlot | undefined;
    for (const card of window) {
      const state = stateOf.get(`${card.slot.type}:${card.slot.id}`);
      // Deleted, no longer public or reported by the caller: left out, as the database leaves it.
      if (!state || !state.visible || state.reported || state.filtered) continue;
      if (items.length === limit) return { items, nextCursor: encodeCursor([snapshot.readAt, last!.band, last!.at, last!.id]) };
      const item = freshCard(card, state);
      if (!item) return null;
      items.push(item);
      last = card.slot;
    }
    // The window ran out: the end of the feed only when it held the whole of it.
    return snapshot.complete && window.length === snapshot.cards.length ? { items } : null;
  }

  /** The for-you cursor: when the read began, and the last key shown. */
  private forYouCursor(cursor: string | undefined): ForYouAfter {
    if (!cursor) return { readAt: cursorNow() };
    const [readAt, band, at, id] = decodeCursor(cursor, ['timestamp', 'int', 'timestamp', 'uuid']) as [string, number, string, string];
    const age = Date.now() - Date.parse(readAt);
    if (age > FEED_READ_HOURS * 3_600_000) throw new BadRequestException(FEED_EXPIRED);
    if (age < -60_000) throw new BadRequestException('Invalid cursor');
    return { readAt, band, at, id };
  }

  /** The cards of a page's slots, in its order. */
  private async hydrate(caller: SignedInCaller, slots: FeedSlot[]): Promise<FeedCardRow[]> {
    const postIds = slots.filter((s) => s.type === 'post').map((s) => s.id);
    const timelineIds = slots.filter((s) => s.type === 'timeline').map((s) => s.id);
    const [posts, timelines] = await Promise.all([this.posts.byIds(postIds, caller.userId), this.feed.timelines(timelineIds, caller.userId)]);
    const postById = new Map(posts.map((p) => [p.id, p]));
    const timelineById = new Map(timelines.map((t) => [t.id, t]));
    return slots.map((slot) => (slot.type === 'post' ? { slot, post: postById.get(slot.id) } : { slot, timeline: timelineById.get(slot.id) }));
  }
}
