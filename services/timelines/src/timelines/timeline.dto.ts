import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { PageQuery, toCleanName } from '@timeliner/platform';
import { COLLABORATOR_ROLES, type CollaboratorRole } from '../collaborators/collaborator.entity.js';
import { type Timeline, TIMELINE_STATUSES, type TimelineStatus, VISIBILITIES, type Visibility } from './timeline.entity.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

// Messages are the product's own wording (spec 001 section 5) where it has one; the first failing
// rule is shown.
const TITLE_REQUIRED = 'Timeline title is required';
const TITLE_TOO_LONG = 'Timeline title must be at most 200 characters';
const DESCRIPTION_TOO_LONG = 'Description must be at most 5000 characters';
const VISIBILITY_INVALID = 'Visibility must be private, public or unlisted';
const STATUS_INVALID = 'Status must be draft or published';
const SENSITIVE_INVALID = 'Sensitive must be true or false';

export class CreateTimelineDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Trip to Lisbon' })
  @Transform(toCleanName)
  @IsString({ message: TITLE_REQUIRED })
  @MinLength(1, { message: TITLE_REQUIRED })
  @MaxLength(200, { message: TITLE_TOO_LONG })
  title: string;

  @ApiPropertyOptional({ type: String, maxLength: 5000, nullable: true })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Description must be text' })
  @MaxLength(5000, { message: DESCRIPTION_TOO_LONG })
  description?: string | null;

  @ApiPropertyOptional({ enum: VISIBILITIES, default: 'private' })
  @IsOptional()
  @IsIn(VISIBILITIES, { message: VISIBILITY_INVALID })
  visibility?: Visibility;
}

/** Settings edit: the creation rules, all optional, plus publishing. */
export class UpdateTimelineDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  // null is not "unchanged": a title cannot be removed.
  @ValidateIf((dto: UpdateTimelineDto) => dto.title !== undefined)
  @Transform(toCleanName)
  @IsString({ message: TITLE_REQUIRED })
  @MinLength(1, { message: TITLE_REQUIRED })
  @MaxLength(200, { message: TITLE_TOO_LONG })
  title?: string;

  @ApiPropertyOptional({ type: String, maxLength: 5000, nullable: true, description: 'null or an empty string clears it' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Description must be text' })
  @MaxLength(5000, { message: DESCRIPTION_TOO_LONG })
  description?: string | null;

  @ApiPropertyOptional({ enum: VISIBILITIES })
  @ValidateIf((dto: UpdateTimelineDto) => dto.visibility !== undefined)
  @IsIn(VISIBILITIES, { message: VISIBILITY_INVALID })
  visibility?: Visibility;

  @ApiPropertyOptional({ enum: ['draft', 'published'], description: '`processing` is set by the system only' })
  @ValidateIf((dto: UpdateTimelineDto) => dto.status !== undefined)
  @IsIn(['draft', 'published'], { message: STATUS_INVALID })
  status?: 'draft' | 'published';

  @ApiPropertyOptional({ description: 'Sensitive content: viewers see a blurred cover with "Show" unless they always show sensitive media' })
  @ValidateIf((dto: UpdateTimelineDto) => dto.sensitive !== undefined)
  @IsBoolean({ message: SENSITIVE_INVALID })
  sensitive?: boolean;
}

export const MAX_PAGE_SIZE = 100;
export const FEED_PAGE_SIZE = 50;
/** The picker and the studio list everything the caller owns or works on; it rarely exceeds a page. */
export const MY_TIMELINES_PAGE_SIZE = 100;

/** A page of the timelines the caller may see (GET /api/timelines). */
export class TimelinePageQueryDto extends PageQuery({ defaultLimit: FEED_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }) {}

/** A page of the caller's own and shared timelines (GET /api/my-timelines). */
export class MyTimelinesPageQueryDto extends PageQuery({ defaultLimit: MY_TIMELINES_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }) {}

export class TimelineDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: VISIBILITIES }) visibility: Visibility;
  @ApiProperty({ enum: TIMELINE_STATUSES }) status: TimelineStatus;
  @ApiProperty({ description: 'visibility is public' }) isPublic: boolean;
  @ApiProperty({ format: 'uuid', description: 'The owner' }) creatorId: string;
  @ApiProperty() creatorName: string;
  @ApiProperty() views: number;
  @ApiProperty() likesCount: number;
  @ApiProperty() commentsCount: number;
  @ApiProperty() videoCount: number;
  @ApiProperty({ description: 'Processed images (videoCount counts videos only)' }) imageCount: number;
  @ApiProperty({ description: 'Seconds' }) duration: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastContentAddedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastCommentAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastLikeAt: string | null;
  @ApiProperty({ format: 'date-time', description: 'Latest of creation, content added, comment, like' }) lastActivityAt: string;
  @ApiProperty({ description: 'Feed ranking score (formula in the service docs)' }) activityScore: number;
  @ApiProperty({ type: String, nullable: true, description: 'Thumbnail of the first processed video (GET /api/videos/{id}/thumbnail), signed with ?access= for an <img src>: valid one to two hours; null until one exists' }) thumbnailUrl: string | null;
  @ApiProperty({ enum: COLLABORATOR_ROLES, nullable: true, description: "The caller's role on the timeline" }) role: CollaboratorRole | null;
  @ApiProperty({ description: 'Marked sensitive (by its owner or the moderators): shown behind a blurred cover with "Show" unless the viewer always shows sensitive media' }) sensitive: boolean;
  @ApiPropertyOptional({ description: 'The moderators hid it or suspended its creator: everyone else is told it does not exist; its owner sees it marked "Removed by moderators", and staff opening it from the moderation desk see it read-only' }) removedByModerators?: boolean;
}

export class TransferOwnershipResultDto {
  @ApiProperty({ type: TimelineDto }) timeline: TimelineDto;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The media service's thumbnail of a video (GET /api/videos/{id}/thumbnail). */
export const videoThumbnailUrl = (mediaId: string) => `/api/videos/${mediaId}/thumbnail`;

/** Signs a media URL for one media id (MediaUrlSigner.sign): an <img src> cannot send the session. */
export type SignMediaUrl = (url: string, mediaId: string) => string;

/**
 * `coverMediaId`: the timeline's first processed video (snapshot.ts), whose thumbnail stands for
 * it; its URL is signed with `sign` for a caller who may view the timeline.
 */
export const mapTimeline = (t: Timeline, role: CollaboratorRole | null, coverMediaId: string | null = null, sign?: SignMediaUrl, removedByModerators = false): TimelineDto => ({
  id: t.id,
  title: t.title,
  description: t.description,
  visibility: t.visibility,
  status: t.status,
  isPublic: t.isPublic,
  creatorId: t.creatorId,
  creatorName: t.creatorName,
  views: t.views,
  likesCount: t.likesCount,
  commentsCount: t.commentsCount,
  videoCount: t.videoCount,
  imageCount: t.imageCount,
  duration: t.duration,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
  lastContentAddedAt: iso(t.lastContentAddedAt),
  lastCommentAt: iso(t.lastCommentAt),
  lastLikeAt: iso(t.lastLikeAt),
  lastActivityAt: t.lastActivityAt.toISOString(),
  activityScore: Math.round(t.activityScore * 1000) / 1000,
  thumbnailUrl: coverMediaId ? (sign ? sign(videoThumbnailUrl(coverMediaId), coverMediaId) : videoThumbnailUrl(coverMediaId)) : null,
  role,
  sensitive: t.sensitive,
  removedByModerators,
});
