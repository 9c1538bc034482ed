import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PostDto } from '../posts/post.dto.js';
import { UserSummaryDto } from '../users/user-summary.dto.js';

export const FEED_TABS = ['for-you', 'following'] as const;
export type FeedTab = (typeof FEED_TABS)[number];
export const FEED_PAGE_SIZE = 20;
export const MAX_FEED_PAGE_SIZE = 50;

const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MAX_FEED_PAGE_SIZE}`;

export class FeedQueryDto {
  @ApiPropertyOptional({ enum: FEED_TABS, default: 'for-you', description: 'for-you: everyone, by activity score band then newest activity; following: the people the caller follows and their own, newest first' })
  @IsOptional()
  @IsIn(FEED_TABS, { message: "Tab must be 'for-you' or 'following'" })
  tab?: FeedTab;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_FEED_PAGE_SIZE, default: FEED_PAGE_SIZE, description: 'Page size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_FEED_PAGE_SIZE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: 'The X-Next-Cursor header of the previous page (of the same tab)' })
  @IsOptional()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(200, { message: 'Invalid cursor' })
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
