import { BadRequestException } from '@nestjs/common';
import type { SignedInCaller } from '@timeliner/platform';
import { decodeCursor, encodeCursor, type Page } from '../pagination/cursor.js';
import type { PostRepository } from '../posts/post.repository.js';
import { mapPost } from '../posts/post.service.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import { FEED_READ_HOURS } from './feed-keys.js';
import { FEED_PAGE_SIZE, type FeedItemDto, type FeedQueryDto, type FeedTimelineDto } from './feed.dto.js';
import type { FeedRepository, FeedSlot, FeedTimelineRow, ForYouAfter } from './feed.repository.js';

export const FEED_EXPIRED = 'This feed has moved on; reload it to see the latest';

/** Now as cursor text (microseconds, UTC). */
const cursorNow = (): string => `${new Date().toISOString().slice(0, 23)}000Z`;

/** A timeline of the read model as a card shows it (the feed and a person's Timelines tab). */
export const mapTimeline = (row: FeedTimelineRow): FeedTimelineDto => {
  const creator = mapUserSummary(row.creatorId, row.creator, row.creatorName);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    videoCount: row.videoCount,
    duration: row.duration,
    creatorId: row.creatorId,
    creatorName: creator.displayName,
    creator,
    views: Number(row.views),
    likesCount: row.likesCount,
    commentsCount: row.commentsCount,
    activityScore: row.activityScore,
    lastActivityAt: row.lastActivityAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    coverMediaId: row.coverMediaId,
    isLiked: row.liked,
    liked: row.liked,
    isBookmarked: row.bookmarked,
    bookmarked: row.bookmarked,
  };
};

/**
 * The home feed: posts and timelines interleaved on the server, each with its counts and the
 * caller's own state, so a card needs no lookup of its own. For you sorts by activity band then
 * newest activity in an order that holds for the whole read (feed-keys.ts); following is the
 * people the caller follows and themselves, newest first. Items the caller reported are left out.
 */
export class FeedService {
  constructor(
    private readonly feed: FeedRepository,
    private readonly posts: PostRepository,
  ) {}

  async page(caller: SignedInCaller, query: FeedQueryDto): Promise<Page<FeedItemDto>> {
    const limit = query.limit ?? FEED_PAGE_SIZE;
    const tab = query.tab ?? 'for-you';
    let slots: FeedSlot[];
    let next: (last: FeedSlot) => string;
    if (tab === 'following') {
      const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
      slots = await this.feed.following(caller.userId, after ? { at: after[0] as string, id: after[1] as string } : undefined, limit + 1);
      next = (last) => encodeCursor([last.at, last.id]);
    } else {
      const after = this.forYouCursor(query.cursor);
      slots = await this.feed.forYou(caller.userId, after, limit + 1);
      next = (last) => encodeCursor([after.readAt, last.band, last.at, last.id]);
    }
    const shown = slots.slice(0, limit);
    const items = await this.hydrate(caller, shown);
    const last = shown.at(-1);
    return { items, ...(slots.length > limit && last ? { nextCursor: next(last) } : {}) };
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

  /** The cards of a page, in its order; an item deleted since it was placed is left out. */
  private async hydrate(caller: SignedInCaller, slots: FeedSlot[]): Promise<FeedItemDto[]> {
    const postIds = slots.filter((s) => s.type === 'post').map((s) => s.id);
    const timelineIds = slots.filter((s) => s.type === 'timeline').map((s) => s.id);
    const [posts, timelines] = await Promise.all([this.posts.byIds(postIds, caller.userId), this.feed.timelines(timelineIds, caller.userId)]);
    const postById = new Map(posts.map((p) => [p.id, p]));
    const timelineById = new Map(timelines.map((t) => [t.id, t]));
    const items: FeedItemDto[] = [];
    for (const slot of slots) {
      if (slot.type === 'post') {
        const post = postById.get(slot.id);
        if (post) items.push({ type: 'post', id: slot.id, post: mapPost(post) });
      } else {
        const timeline = timelineById.get(slot.id);
        if (timeline) items.push({ type: 'timeline', id: slot.id, timeline: mapTimeline(timeline) });
      }
    }
    return items;
  }
}
