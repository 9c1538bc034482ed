import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_QUERY_LENGTH } from '../text/search-query.js';
import type { HashtagHit, TimelineHit, UserHit } from './search.repository.js';

export const SEARCH_TYPES = ['all', 'timelines', 'users', 'hashtags'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Results of each kind in one answer of type all, and the page size of one kind. */
export const DEFAULT_ALL_LIMIT = 10;
export const DEFAULT_TYPE_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;
/** How deep one kind can be paged: relevance past this is noise, and each page costs more. */
export const MAX_SEARCH_OFFSET = 1000;

const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`;

export class SearchQueryDto {
  @ApiPropertyOptional({
    maxLength: MAX_QUERY_LENGTH,
    description:
      'What to look for. Words must all match (title and hashtags weigh most, then the creator, then the description); "quoted phrase", -excluded, or; accents and case do not matter; the last word matches as a prefix while typed; a word matching nothing is widened to similar known words. #tag looks for hashtags, @name for people. Empty: empty lists.',
  })
  @IsOptional()
  @IsString({ message: 'Query must be text' })
  @MaxLength(MAX_QUERY_LENGTH, { message: `Query must be at most ${MAX_QUERY_LENGTH} characters` })
  q?: string;

  @ApiPropertyOptional({ enum: SEARCH_TYPES, default: 'all', description: 'all: up to `limit` of each kind; one kind: a page of it, the next page\'s cursor in X-Next-Cursor' })
  @IsOptional()
  @IsIn(SEARCH_TYPES, { message: `Type must be one of ${SEARCH_TYPES.join(', ')}` })
  type?: SearchType;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `Results of each kind; default ${DEFAULT_ALL_LIMIT} for all, ${DEFAULT_TYPE_LIMIT} for one kind` })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_SEARCH_LIMIT, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: 'The X-Next-Cursor header of the previous page (same q and type)' })
  @IsOptional()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(200, { message: 'Invalid cursor' })
  cursor?: string;
}

/** The person beside a timeline card (spec 000: `user {id, displayName, username, avatar}`). */
export class CreatorDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ description: 'Empty until search has heard of the person' }) username: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
}

/** A public, published timeline as a card shows it (the feed's timeline card, without the caller's like and bookmark state). */
export class SearchTimelineDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [String], description: 'Hashtags of the title and description, lower-case, without #' }) hashtags: string[];
  @ApiProperty({ enum: ['public'] }) visibility: 'public';
  @ApiProperty({ enum: ['published'] }) status: 'published';
  @ApiProperty({ type: 'integer' }) videoCount: number;
  @ApiProperty({ type: 'integer', description: 'Seconds' }) duration: number;
  @ApiProperty({ format: 'uuid' }) creatorId: string;
  @ApiProperty() creatorName: string;
  @ApiProperty({ type: CreatorDto }) creator: CreatorDto;
  @ApiProperty({ type: 'integer' }) views: number;
  @ApiProperty({ type: 'integer' }) likesCount: number;
  @ApiProperty({ type: 'integer' }) commentsCount: number;
  @ApiProperty() activityScore: number;
  @ApiProperty({ format: 'date-time' }) lastActivityAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The first ready video, for the preview (GET /api/videos/{id}/stream)' }) coverMediaId: string | null;
}

export class SearchUserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() username: string;
  @ApiProperty() displayName: string;
  @ApiProperty() bio: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty() isPrivate: boolean;
  @ApiProperty({ type: 'integer' }) followersCount: number;
}

/** Spec 001: Hashtag name, usageCount (listed timelines and posts using it). */
export class HashtagDto {
  @ApiProperty({ description: 'Lower-case, without #' }) name: string;
  @ApiProperty({ type: 'integer' }) usageCount: number;
}

/** Spec 001: Search result timelines, users, hashtags. */
export class SearchResultDto {
  @ApiProperty({ type: [SearchTimelineDto] }) timelines: SearchTimelineDto[];
  @ApiProperty({ type: [SearchUserDto] }) users: SearchUserDto[];
  @ApiProperty({ type: [HashtagDto] }) hashtags: HashtagDto[];
}

const UNKNOWN_USER = 'Unknown User';

export function mapTimeline(t: TimelineHit): SearchTimelineDto {
  const displayName = t.creatorDisplayName || t.creatorName || t.creatorUsername || UNKNOWN_USER;
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    hashtags: t.hashtags,
    visibility: 'public',
    status: 'published',
    videoCount: t.videoCount,
    duration: t.duration,
    creatorId: t.creatorId,
    creatorName: t.creatorName || displayName,
    creator: { id: t.creatorId, displayName, username: t.creatorUsername, avatar: t.creatorAvatar },
    views: Number(t.views),
    likesCount: t.likesCount,
    commentsCount: t.commentsCount,
    activityScore: t.activityScore,
    lastActivityAt: t.lastActivityAt,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    coverMediaId: t.coverMediaId,
  };
}

export const mapUser = (u: UserHit): SearchUserDto => ({ ...u, displayName: u.displayName || u.username });
export const mapHashtag = (h: HashtagHit): HashtagDto => ({ name: h.name, usageCount: h.usageCount });
