import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { mapUserSummary, UserSummaryDto } from '../users/user-summary.dto.js';
import type { PostRow } from './post-card.js';
import type { PostCommentRow } from './post.repository.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export const MAX_POST_LENGTH = 5000;
export const MAX_POST_COMMENT_LENGTH = 2000;
/** Spec 000's toast for a blank post, and the server's answer to one. */
export const EMPTY_POST = 'Please enter something to share';
const EMPTY_COMMENT = 'Comment cannot be empty';

/** `POST /api/posts` and `PUT /api/posts/{id}`: `{content}`, trimmed. */
export class PostContentDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_POST_LENGTH, description: 'Trimmed before it is stored; #hashtags and @mentions in it are recognised', example: 'Cutting the Lisbon trip into a timeline #travel' })
  @Transform(trim)
  @IsString({ message: ({ value }) => (value === undefined || value === null ? EMPTY_POST : 'Content must be text') })
  @MinLength(1, { message: EMPTY_POST })
  @MaxLength(MAX_POST_LENGTH, { message: `A post may be at most ${MAX_POST_LENGTH} characters` })
  content: string;

  @ApiPropertyOptional({ description: 'Sensitive: viewers see a blurred cover with "Show" first (unless they always show sensitive media). Absent: unchanged (new posts: false)' })
  @ValidateIf((dto: PostContentDto) => dto.sensitive !== undefined)
  @IsBoolean({ message: 'Sensitive must be true or false' })
  sensitive?: boolean;
}

export class PostCommentContentDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_POST_COMMENT_LENGTH, description: 'Trimmed before it is stored' })
  @Transform(trim)
  @IsString({ message: ({ value }) => (value === undefined || value === null ? EMPTY_COMMENT : 'Comment must be text') })
  @MinLength(1, { message: EMPTY_COMMENT })
  @MaxLength(MAX_POST_COMMENT_LENGTH, { message: `Comment must be at most ${MAX_POST_COMMENT_LENGTH} characters` })
  content: string;
}

/** A post as spec 000 reads it, with the caller's own like and bookmark state. */
export class PostDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() content: string;
  @ApiProperty({ type: [String], description: 'Lower-case tags without #, in order of first use' }) hashtags: string[];
  @ApiProperty({ type: [String], description: 'Lower-case usernames without @, in order of first use' }) mentions: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ description: 'Whether the text was changed after it was posted' }) edited: boolean;
  @ApiProperty({ type: 'integer', minimum: 0 }) likesCount: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) commentsCount: number;
  @ApiProperty({ description: 'Whether the caller likes the post (false for anonymous callers)' }) liked: boolean;
  @ApiProperty({ description: 'Same as liked' }) isLiked: boolean;
  @ApiProperty({ description: 'Whether the caller bookmarked the post (false for anonymous callers)' }) bookmarked: boolean;
  @ApiProperty({ description: 'Same as bookmarked' }) isBookmarked: boolean;
  @ApiProperty({ type: UserSummaryDto }) user: UserSummaryDto;
  @ApiProperty({ description: 'Marked sensitive by its author or the moderators: shown behind a blurred cover with "Show" unless the viewer always shows sensitive media' }) sensitive: boolean;
  @ApiProperty({ description: 'Hidden by the moderators: only its author still sees it, marked "Removed by moderators"; and staff on its own page, marked "Hidden by moderators" (then also when its author is suspended)' }) removedByModerators: boolean;
  @ApiPropertyOptional({ description: "To staff, on a post the moderators took out: why (the decision's reason, or its author's suspension's)" }) moderationReason?: string;
}

export class PostLikeStatusDto {
  @ApiProperty() liked: boolean;
  @ApiProperty({ description: 'Same as liked' }) isLiked: boolean;
  @ApiProperty({ type: 'integer', minimum: 0 }) likesCount: number;
}

export class PostBookmarkStatusDto {
  @ApiProperty() bookmarked: boolean;
  @ApiProperty({ description: 'Same as bookmarked' }) isBookmarked: boolean;
}

export class PostCommentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) postId: string;
  @ApiProperty() content: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: UserSummaryDto }) user: UserSummaryDto;
  @ApiProperty({ description: "Waiting for approval: shown only to its author and the post's author" }) held: boolean;
  @ApiProperty({ description: "Pinned by the post's author: shown first" }) pinned: boolean;
  @ApiPropertyOptional({ description: 'Hidden by the moderators, or its author suspended: absent to everyone but staff, who see it in its list marked so (only when true)' }) removedByModerators?: boolean;
}

export const mapPost = (row: PostRow): PostDto => ({
  id: row.id,
  userId: row.userId,
  content: row.content,
  hashtags: row.hashtags,
  mentions: row.mentions,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  edited: row.edited,
  likesCount: row.likesCount,
  commentsCount: row.commentsCount,
  liked: row.liked,
  isLiked: row.liked,
  bookmarked: row.bookmarked,
  isBookmarked: row.bookmarked,
  user: mapUserSummary(row.userId, row.author),
  sensitive: row.sensitive,
  removedByModerators: row.removedByModerators,
});

export const mapPostComment = (row: PostCommentRow): PostCommentDto => ({
  id: row.id,
  postId: row.postId,
  content: row.content,
  createdAt: row.createdAt.toISOString(),
  user: mapUserSummary(row.userId, row.author, row.userName),
  held: row.held,
  pinned: row.pinnedAt !== null,
  ...(row.removedByModerators ? { removedByModerators: true } : {}),
});
