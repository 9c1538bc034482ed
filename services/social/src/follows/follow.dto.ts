import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE_SIZE } from '../pagination/cursor.js';
import { UNKNOWN_USER } from '../users/user-names.js';

/** Follower lists are shorter pages than comments: 20 people unless asked otherwise. */
export const FOLLOW_PAGE_SIZE = 20;

const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`;

/** `?limit&cursor` as in pagination/cursor.ts, with this list's default page size. */
export class FollowPageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: FOLLOW_PAGE_SIZE, description: 'Page size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: 'The X-Next-Cursor header of the previous page' })
  @IsOptional()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(200, { message: 'Invalid cursor' })
  cursor?: string;
}

/** Spec 001: `/following` reads `isFollowing`; the counts are those of the person in the path. */
export class FollowStatusDto {
  @ApiProperty({ description: 'Whether the caller follows this person (false for anonymous callers)' }) isFollowing: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many people follow this person' }) followersCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many people this person follows' }) followingCount: number;
}

/** One person of a followers or following list. */
export class FollowPersonDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Empty until this service has heard of the person' }) username: string;
  @ApiProperty({ description: `"${UNKNOWN_USER}" until this service has heard of the person` }) displayName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ description: 'Whether the caller follows this person (false for anonymous callers)' }) isFollowing: boolean;
  @ApiProperty({ format: 'date-time', description: 'When the follow began' }) followedAt: string;
}
