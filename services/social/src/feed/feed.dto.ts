import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageCursor, PageLimit, type PageQueryFields } from '@timeliner/platform';
import { IsIn, IsOptional } from 'class-validator';
import { mapPost, PostDto } from '../posts/post.dto.js';
import { mapUserSummary, UserSummaryDto } from '../users/user-summary.dto.js';
import type { FeedCardRow, FeedTimelineRow } from './feed.repository.js';

export const FEED_TABS = ['for-you', 'following'] as const;
export type FeedTab = (typeof FEED_TABS)[number];
export const FEED_PAGE_SIZE = 20;
export const MAX_FEED_PAGE_SIZE = 50;

/** The platform's page query with the tab first (the order the API description lists them in). */
export class FeedQueryDto implements PageQueryFields {
  @ApiPropertyOptional({ enum: FEED_TABS, default: 'for-you', description: 'for-you: everyone, by activity score band then newest activity; following: the people the caller follows and their own, newest first' })
  @IsOptional()
  @IsIn(FEED_TABS, { message: "Tab must be 'for-you' or 'following'" })
  tab?: FeedTab;

  @PageLimit({ max: MAX_FEED_PAGE_SIZE, default: FEED_PAGE_SIZE, description: 'Page size' })
  limit?: number;

  @PageCursor('The X-Next-Cursor header of the previous page (of the same tab)')
  cursor?: string;
}

/** A public, published timeline as a feed card shows it, with the caller's own state. */
export class FeedTimelineDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: 'integer' }) videoCount: number;
  @ApiProperty({ type: 'integer', description: 'Seconds' }) duration: number;
  @ApiProperty({ format: 'uuid' }) creatorId: string;
  @ApiProperty() creatorName: string;
  @ApiProperty({ type: UserSummaryDto }) creator: UserSummaryDto;
  @ApiProperty({ type: 'integer' }) views: number;
  @ApiProperty({ type: 'integer' }) likesCount: number;
  @ApiProperty({ type: 'integer' }) commentsCount: number;
  @ApiProperty() activityScore: number;
  @ApiProperty({ format: 'date-time' }) lastActivityAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The first ready video, for the preview (GET /api/videos/{id}/stream)' }) coverMediaId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The cover video's short description (its alt text), the accessible description of the card's cover; null when it has none" }) coverAltText: string | null;
  @ApiProperty({ description: 'Marked sensitive (by its owner or the moderators): the card shows a blurred cover with Show unless the viewer always shows sensitive media' }) sensitive: boolean;
  @ApiProperty() isLiked: boolean;
  @ApiProperty({ description: 'Same as isLiked' }) liked: boolean;
  @ApiProperty() isBookmarked: boolean;
  @ApiProperty({ description: 'Same as isBookmarked' }) bookmarked: boolean;
}

/** One feed item: a post or a timeline, with everything its card needs. */
export class FeedItemDto {
  @ApiProperty({ enum: ['post', 'timeline'] }) type: 'post' | 'timeline';
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiPropertyOptional({ type: PostDto, description: 'When type is post' }) post?: PostDto;
  @ApiPropertyOptional({ type: FeedTimelineDto, description: 'When type is timeline' }) timeline?: FeedTimelineDto;
}

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
    coverAltText: row.coverAltText ?? null,
    sensitive: row.sensitive ?? false,
    isLiked: row.liked,
    liked: row.liked,
    isBookmarked: row.bookmarked,
    bookmarked: row.bookmarked,
  };
};

/** A page's item as the feed answers it; none when the item was deleted since it was placed. */
export const mapFeedCard = ({ slot, post, timeline }: FeedCardRow): FeedItemDto[] => {
  if (post) return [{ type: 'post', id: slot.id, post: mapPost(post) }];
  if (timeline) return [{ type: 'timeline', id: slot.id, timeline: mapTimeline(timeline) }];
  return [];
};
