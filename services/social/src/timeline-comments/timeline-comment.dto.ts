import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { mapUserSummary, UserSummaryDto } from '../users/user-summary.dto.js';
import type { CommentRow } from './timeline-comment.repository.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export const MAX_COMMENT_LENGTH = 2000;
/** A day: no timeline runs longer. */
export const MAX_COMMENT_TIMESTAMP = 86_400;

const EMPTY = 'Comment cannot be empty';
const TIMESTAMP = 'Timestamp must be a whole number of seconds';

/**
 * Spec 001 sends `{content, timestamp, userId, userName}`, spec 000's feed card only `{content}`.
 * Both are accepted; the author is always the verified caller, never the body.
 */
export class CreateTimelineCommentDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_COMMENT_LENGTH, description: 'Trimmed before it is stored', example: 'Love the second clip!' })
  @Transform(trim)
  @IsString({ message: ({ value }) => (value === undefined || value === null ? EMPTY : 'Comment must be text') })
  @MinLength(1, { message: EMPTY })
  @MaxLength(MAX_COMMENT_LENGTH, { message: `Comment must be at most ${MAX_COMMENT_LENGTH} characters` })
  content: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_COMMENT_TIMESTAMP, default: 0, description: 'Seconds into the timeline' })
  @IsOptional()
  @IsInt({ message: TIMESTAMP })
  @Min(0, { message: TIMESTAMP })
  @Max(MAX_COMMENT_TIMESTAMP, { message: `Timestamp must be at most ${MAX_COMMENT_TIMESTAMP} seconds` })
  timestamp?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'Must be the caller (403 otherwise); the author is taken from the session' })
  @IsOptional()
  @IsString({ message: 'userId must be a string' })
  userId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Ignored: the name shown is the author\'s own' })
  @IsOptional()
  @IsString({ message: 'userName must be a string' })
  @MaxLength(200, { message: 'userName must be at most 200 characters' })
  userName?: string;
}

export class TimelineCommentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() content: string;
  @ApiProperty({ type: 'integer', description: 'Seconds into the timeline' }) timestamp: number;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ description: "The author's display name" }) userName: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: UserSummaryDto }) user: UserSummaryDto;
  @ApiProperty({ description: 'Waiting for approval: shown only to its author and the moderators of the timeline' }) held: boolean;
  @ApiProperty({ description: 'Pinned by the moderators of the timeline: shown first' }) pinned: boolean;
  @ApiPropertyOptional({ description: 'Hidden by the moderators, or its author suspended: absent to everyone but staff, who see it in its list marked so (only when true)' }) removedByModerators?: boolean;
}

export const mapTimelineComment = ({ comment, author, removedByModerators }: CommentRow): TimelineCommentDto => {
  const user = mapUserSummary(comment.userId, author, comment.userName);
  return {
    id: comment.id,
    content: comment.content,
    timestamp: comment.timestamp,
    userId: comment.userId,
    userName: user.displayName,
    createdAt: comment.createdAt.toISOString(),
    user,
    held: comment.held,
    pinned: comment.pinnedAt !== null,
    ...(removedByModerators ? { removedByModerators } : {}),
  };
};
