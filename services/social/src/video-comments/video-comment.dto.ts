import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_COMMENT_LENGTH } from '../timeline-comments/timeline-comment.dto.js';
import { UserSummaryDto } from '../users/user-summary.dto.js';

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
  @ApiProperty({ type: () => [VideoCommentDto], description: 'Replies, oldest first (always empty on a reply)' }) replies: VideoCommentDto[];
  @ApiProperty({ type: 'integer' }) repliesCount: number;
  @ApiProperty({ type: 'integer' }) likesCount: number;
}
