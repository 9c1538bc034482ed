import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageCursor, PageLimit } from '@timeliner/platform';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_QUERY_LENGTH } from '../text/search-query.js';
import type { SpokenHit } from '../captions/caption-search.repository.js';
import type { HashtagHit, TimelineHit, UserHit } from './search.repository.js';

export const SEARCH_TYPES = ['all', 'timelines', 'users', 'hashtags'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Results of each kind in one answer of type all, and the page size of one kind. */
export const DEFAULT_ALL_LIMIT = 10;
export const DEFAULT_TYPE_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;
/** How deep one kind can be paged: relevance past this is noise, and each page costs more. */
export const MAX_SEARCH_OFFSET = 1000;

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

  @PageLimit({ max: MAX_SEARCH_LIMIT, description: `Results of each kind; default ${DEFAULT_ALL_LIMIT} for all, ${DEFAULT_TYPE_LIMIT} for one kind` })
  limit?: number;

  @PageCursor('The X-Next-Cursor header of the previous page (same q and type)')
  cursor?: string;
}

/** The person beside a timeline card (spec 000: `user {id, displayName, username, avatar}`). */
export class CreatorDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ description: 'Empty until search has heard of the person' }) username: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
}

/** Where the words looked for are said in one of the timeline's videos (its captions). */
export class SpokenMatchDto {
  @ApiProperty({ format: 'uuid', description: 'The video' }) videoId: string;
  @ApiProperty({ example: 'en', description: 'The caption track\'s language' }) language: string;
  @ApiProperty({ description: 'Seconds from the start of the video where the cue begins' }) startTime: number;
  @ApiProperty({ description: 'Seconds where the cue ends' }) endTime: number;
  @ApiProperty({ description: 'The cue\'s words, without markup' }) text: string;
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
  @ApiProperty({ type: String, nullable: true, description: "The cover video's short description (its alt text), the accessible description of the result's cover; null when it has none" }) coverAltText: string | null;
  @ApiProperty({ description: 'Marked sensitive (by its owner or the moderators): the result shows a blurred cover with Show unless the viewer always shows sensitive media' }) sensitive: boolean;
  @ApiPropertyOptional({ type: SpokenMatchDto, description: 'When the words are said in one of its videos: the best matching caption cue and its time' }) spoken?: SpokenMatchDto;
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
    coverAltText: t.coverAltText ?? null,
    sensitive: t.sensitive,
  };
}

export const mapSpoken = (hit: SpokenHit): SpokenMatchDto => ({
  videoId: hit.mediaId,
  language: hit.language,
  startTime: hit.startMs / 1000,
  endTime: hit.endMs / 1000,
  text: hit.text,
});

export const mapUser = (u: UserHit): SearchUserDto => ({ ...u, displayName: u.displayName || u.username });
export const mapHashtag = (h: HashtagHit): HashtagDto => ({ name: h.name, usageCount: h.usageCount });
