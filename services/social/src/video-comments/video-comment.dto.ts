import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_COMMENT_LENGTH } from '../timeline-comments/timeline-comment.dto.js';
import { mapUserSummary, UserSummaryDto } from '../users/user-summary.dto.js';
import type { VideoCommentRow } from './video-comment.repository.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const EMPTY = 'Comment cannot be empty';

/** Content rules shared by comments and replies: trimmed, 1 to 2000 characters. */
class VideoCommentContentDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_COMMENT_LENGTH, description: 'Trimmed before it is stored', example: 'Where was this filmed?' })
  @Transform(trim)
  @IsString({ message: ({ value }) => (value === undefined || value === null ? EMPTY : 'Comment must be text') })
  @MinLength(1, { message: EMPTY })
  @MaxLength(MAX_COMMENT_LENGTH, { message: `Comment must be at most ${MAX_COMMENT_LENGTH} characters` })
  content: string;
}

/** Spec 001 sends `{content, timelineId}`; the timeline is always the video's own. */
export class CreateVideoCommentDto extends VideoCommentContentDto {
  @ApiPropertyOptional({ format: 'uuid', description: "The video's timeline; anything else is refused (400)" })
  @IsOptional()
  @IsString({ message: 'timelineId must be a string' })
  @MaxLength(100, { message: "timelineId must be the video's timeline" })
  timelineId?: string;
}

export class CreateVideoReplyDto extends VideoCommentContentDto {}

export class VideoCommentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) videoId: string;
  @ApiProperty({ format: 'uuid' }) timelineId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The comment replied to; null for a top-level comment' }) parentId: string | null;
  @ApiProperty() content: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ description: "The author's display name" }) userName: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: UserSummaryDto }) user: UserSummaryDto;
  @ApiProperty({ type: () => [VideoCommentDto], description: 'The first replies (up to 3), oldest first; always empty on a reply and in the replies route' }) replies: VideoCommentDto[];
  @ApiProperty({ type: 'integer', description: 'All replies (approved ones)' }) repliesCount: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When more replies follow those given: the cursor of GET /api/videos/{id}/comments/{commentId}/replies for the next ones; null otherwise',
  })
  repliesCursor: string | null;
  @ApiProperty({ type: 'integer' }) likesCount: number;
  @ApiProperty({ description: "Waiting for approval: shown only to its author and the moderators of the video's timeline" }) held: boolean;
  @ApiProperty({ description: "Pinned by the moderators of the video's timeline: shown first" }) pinned: boolean;
  @ApiPropertyOptional({ description: 'Hidden by the moderators, or its author suspended: absent to everyone but staff, who see it in its list marked so (only when true)' }) removedByModerators?: boolean;
}

export const mapVideoComment = (row: VideoCommentRow, replies: VideoCommentDto[] = [], repliesCursor: string | null = null): VideoCommentDto => {
  const user = mapUserSummary(row.userId, row.author, row.userName);
  return {
    id: row.id,
    videoId: row.videoId,
    timelineId: row.timelineId,
    parentId: row.parentId,
    content: row.content,
    userId: row.userId,
    userName: user.displayName,
    createdAt: row.createdAt.toISOString(),
    user,
    replies,
    repliesCount: row.repliesCount,
    repliesCursor,
    likesCount: row.likesCount,
    held: row.held,
    pinned: row.pinnedAt !== null,
    ...(row.removedByModerators ? { removedByModerators: true } : {}),
  };
};
