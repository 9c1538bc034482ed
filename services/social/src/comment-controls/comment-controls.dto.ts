import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { mapUserSummary, UserSummaryDto } from '../users/user-summary.dto.js';
import type { CommentKind, ControlledComment } from './comment-controls.repository.js';
import { type CommentRules, WHO_MAY_COMMENT, type WhoMayComment } from '../comment-rules/comment-rules.js';

export const MAX_HELD_WORDS = 100;
export const MAX_HELD_WORD_LENGTH = 50;
export const MAX_NEW_ACCOUNT_DAYS = 365;

/** `PUT .../comment-settings`: the whole settings of an item's comments. */
export class UpdateCommentSettingsDto {
  @ApiProperty({ enum: WHO_MAY_COMMENT, description: "Who may comment: everyone, the followers of the timeline's owner or the post's author, or nobody (its moderators always may)" })
  @IsIn(WHO_MAY_COMMENT, { message: `whoMayComment must be one of ${WHO_MAY_COMMENT.join(', ')}` })
  whoMayComment: WhoMayComment;

  @ApiPropertyOptional({ default: false, description: 'Every comment waits for approval' })
  @IsOptional()
  @IsBoolean({ message: 'holdAll must be true or false' })
  holdAll?: boolean;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_HELD_WORDS, description: 'A comment containing one of these words waits for approval (whole words, any case)' })
  @IsOptional()
  @IsArray({ message: 'heldWords must be a list of words' })
  @ArrayMaxSize(MAX_HELD_WORDS, { message: `At most ${MAX_HELD_WORDS} held words` })
  @IsString({ each: true, message: 'Each held word must be text' })
  @MaxLength(MAX_HELD_WORD_LENGTH, { each: true, message: `A held word may be at most ${MAX_HELD_WORD_LENGTH} characters` })
  heldWords?: string[];

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: MAX_NEW_ACCOUNT_DAYS, description: 'Comments from accounts younger than this many days wait for approval; null: off' })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt({ message: 'holdNewAccountsDays must be a whole number of days' })
  @Min(1, { message: 'holdNewAccountsDays must be at least 1' })
  @Max(MAX_NEW_ACCOUNT_DAYS, { message: `holdNewAccountsDays must be at most ${MAX_NEW_ACCOUNT_DAYS}` })
  holdNewAccountsDays?: number | null;
}

/** An item's comment settings as the caller may know them, and what the caller may do. */
export class CommentSettingsDto {
  @ApiProperty({ enum: WHO_MAY_COMMENT }) whoMayComment: WhoMayComment;
  @ApiProperty({ description: 'Whether the caller may comment now (false when signed out)' }) canComment: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Why the caller may not comment, to show instead of the composer; null when they may (or are signed out)' }) reason: string | null;
  @ApiProperty({ description: "Whether the caller moderates the item's comments (the timeline's owner or an editor, the post's author)" }) canModerate: boolean;
  @ApiProperty({ type: Boolean, nullable: true, description: 'Moderators only; null for others' }) holdAll: boolean | null;
  @ApiProperty({ type: [String], nullable: true, description: 'Moderators only; null for others' }) heldWords: string[] | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Moderators only (null for others, and when off)' }) holdNewAccountsDays: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'How many comments wait for approval: moderators only; null for others' }) heldCount: number | null;
}

/** A comment waiting in an item's approval queue. */
export class HeldCommentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['timeline', 'video', 'post'], description: 'On the timeline itself, on one of its videos, or on a post' }) kind: CommentKind;
  @ApiProperty({ format: 'uuid', description: 'The timeline, video or post it is on' }) targetId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The comment it replies to (video comments)' }) parentId: string | null;
  @ApiProperty() content: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: UserSummaryDto }) user: UserSummaryDto;
}

export const mapCommentSettings = (rules: CommentRules, caller: { signedIn: boolean; moderator: boolean; refusal: string | null }, heldCount: number | null): CommentSettingsDto => ({
  whoMayComment: rules.whoMayComment,
  canComment: caller.signedIn && caller.refusal === null,
  reason: caller.refusal,
  canModerate: caller.moderator,
  holdAll: caller.moderator ? rules.holdAll : null,
  heldWords: caller.moderator ? rules.heldWords : null,
  holdNewAccountsDays: caller.moderator ? rules.holdNewAccountsDays : null,
  heldCount: caller.moderator ? heldCount : null,
});

export const mapHeldComment = (row: ControlledComment): HeldCommentDto => ({
  id: row.id,
  kind: row.kind,
  targetId: row.targetId,
  parentId: row.parentId,
  content: row.content,
  createdAt: row.createdAt.toISOString(),
  user: mapUserSummary(row.userId, row.author, row.userName),
});
