import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { toCleanName } from '@timeliner/platform';
import type { Media } from './media.entity.js';
import { ALT_TEXT_DESCRIPTION, ALT_TEXT_DEFERRED_DESCRIPTION, altTextOf } from '../alt-text/alt-text-format.js';

const TITLE_REQUIRED = 'Title is required';
export const MAX_TITLE = 200;
/** More media than any timeline may hold; bounds a reorder body. */
export const MAX_TIMELINE_MEDIA = 1000;
const SENSITIVE = 'Marked sensitive by its creators or the moderators: viewers see a cover with Show first (unless they always show sensitive media)';
const REMOVED = "Hidden by the moderators: only the timeline's owner and editors still see it, marked so";
const SIGNED = 'Carries `?access=<token>`, valid for one to two hours: it opens this media without the bearer header (for <video src>, <img src>, links).';

export class VideoMetadataDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true }) width: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) height: number | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'Recording time read from the file, when it carries one' }) createdAt: string | null;
}

/** Spec 001's Video, plus the HLS master playlist. */
export class VideoDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty() originalName: string;
  @ApiProperty({ description: 'Server-generated storage name of the original' }) filename: string;
  @ApiProperty({ enum: ['uploading', 'processing', 'completed', 'error'] }) status: Media['status'];
  @ApiProperty({ enum: ['video', 'image'] }) mediaType: Media['mediaType'];
  @ApiProperty({ type: 'integer' }) position: number;
  @ApiProperty({ description: 'Seconds; 0 until processed' }) duration: number;
  @ApiProperty({ type: 'integer', description: 'Bytes' }) fileSize: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) uploadedAt: string | null;
  @ApiProperty({ type: VideoMetadataDto }) metadata: VideoMetadataDto;
  @ApiProperty({ type: 'string', nullable: true, description: SIGNED }) thumbnailUrl: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: SIGNED }) cloudThumbnailUrl: string | null;
  @ApiProperty({ description: `The original, with Range support. ${SIGNED}` }) streamUrl: string;
  @ApiProperty({ type: 'string', nullable: true, description: `HLS master playlist; null until the first rendition exists. ${SIGNED}` }) hlsUrl: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why processing failed or the file was refused (status error), in a sentence for its creator; null otherwise' }) errorReason: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: ALT_TEXT_DESCRIPTION }) altText: string | null;
  @ApiProperty({ description: ALT_TEXT_DEFERRED_DESCRIPTION }) altTextDeferred: boolean;
  @ApiProperty({ description: SENSITIVE }) sensitive: boolean;
  @ApiProperty({ description: REMOVED }) removedByModerators: boolean;
}

export class MediaItemMetadataDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true }) width: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) height: number | null;
}

/** Spec 000's timeline media item. */
export class MediaItemDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['video', 'image'] }) type: Media['mediaType'];
  @ApiProperty({ enum: ['uploading', 'processing', 'completed', 'error'], description: 'completed means ready' }) status: Media['status'];
  @ApiProperty() title: string;
  @ApiProperty() originalName: string;
  @ApiProperty({ type: 'string', nullable: true, description: `Videos: the original with Range support. ${SIGNED}` }) cloudVideoUrl: string | null;
  @ApiProperty({ description: `Images: the picture (web-size when made); videos: the original. ${SIGNED}` }) cloudUrl: string;
  @ApiProperty({ type: 'string', nullable: true, description: SIGNED }) thumbnailUrl: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: SIGNED }) hlsUrl: string | null;
  @ApiProperty({ type: 'integer' }) position: number;
  @ApiProperty({ description: 'Seconds' }) duration: number;
  @ApiProperty({ type: MediaItemMetadataDto }) metadata: MediaItemMetadataDto;
  @ApiProperty({ type: 'string', nullable: true, description: ALT_TEXT_DESCRIPTION }) altText: string | null;
  @ApiProperty({ description: SENSITIVE }) sensitive: boolean;
  @ApiProperty({ description: REMOVED }) removedByModerators: boolean;
}

export class ReorderVideosDto {
  @ApiProperty({ type: [String], description: "Every video of the timeline, each once, in the new order (the images keep their places); or every video and image" })
  @IsArray({ message: 'videoIds must be the list of the timeline\'s video ids' })
  @ArrayMaxSize(MAX_TIMELINE_MEDIA, { message: `videoIds must have at most ${MAX_TIMELINE_MEDIA} entries` })
  @IsString({ each: true, message: 'videoIds must be the list of the timeline\'s video ids' })
  videoIds: string[];
}

export class OrderByTimestampDto {
  @ApiProperty({ enum: ['upload', 'created'], description: 'upload: upload time; created: recording time, else upload time' })
  @IsIn(['upload', 'created'], { message: 'orderType must be upload or created' })
  orderType: 'upload' | 'created';
}

export class UpdateTitleDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_TITLE, description: 'Trimmed, without control or bidirectional formatting characters, before it is stored' })
  @Transform(toCleanName)
  @IsString({ message: TITLE_REQUIRED })
  @MinLength(1, { message: TITLE_REQUIRED })
  @MaxLength(MAX_TITLE, { message: `Title must be at most ${MAX_TITLE} characters` })
  title: string;
}

const finite = (n: unknown): number | null => (typeof n === 'number' && Number.isFinite(n) ? n : null);
const hlsFile = (m: Media): string | null => (m.hlsMasterKey ? m.hlsMasterKey.slice(m.hlsMasterKey.lastIndexOf('/') + 1) : null);

export const streamUrlOf = (id: string) => `/api/videos/${id}/stream`;
export const thumbnailUrlOf = (m: Media) => (m.thumbnailKey ? `/api/videos/${m.id}/thumbnail` : null);
export const hlsUrlOf = (m: Media) => (hlsFile(m) ? `/api/videos/${m.id}/hls/${hlsFile(m)}` : null);

/** Adds the access token of the media to one of its URLs (see media-urls.ts); the identity when unsigned. */
export type SignUrl = (url: string) => string;
const unsigned: SignUrl = (url) => url;
const signed = (url: string | null, sign: SignUrl): string | null => (url === null ? null : sign(url));

/** Sensitive when its creators or the moderators say so; removed when the moderators hid it. */
const moderationOf = (m: Media): { sensitive: boolean; removedByModerators: boolean } => ({
  sensitive: Boolean(m.sensitive || m.moderatedSensitive),
  removedByModerators: Boolean(m.moderatedHidden),
});

export function toVideoDto(m: Media, sign: SignUrl = unsigned): VideoDto {
  const thumbnailUrl = signed(thumbnailUrlOf(m), sign);
  const createdAt = typeof m.metadata?.createdAt === 'string' && !Number.isNaN(Date.parse(m.metadata.createdAt)) ? new Date(m.metadata.createdAt).toISOString() : null;
  return {
    id: m.id,
    title: m.title,
    originalName: m.originalName,
    filename: m.filename,
    status: m.status,
    mediaType: m.mediaType,
    position: m.position,
    duration: m.duration,
    fileSize: m.fileSize,
    uploadedAt: m.uploadedAt ? m.uploadedAt.toISOString() : null,
    metadata: { width: finite(m.metadata?.width), height: finite(m.metadata?.height), createdAt },
    thumbnailUrl,
    cloudThumbnailUrl: thumbnailUrl,
    streamUrl: sign(streamUrlOf(m.id)),
    hlsUrl: signed(hlsUrlOf(m), sign),
    errorReason: m.status === 'error' ? (m.errorReason ?? null) : null,
    ...altTextOf(m),
    ...moderationOf(m),
  };
}

export function toMediaItemDto(m: Media, sign: SignUrl = unsigned): MediaItemDto {
  const isImage = m.mediaType === 'image';
  return {
    id: m.id,
    type: m.mediaType,
    status: m.status,
    title: m.title,
    originalName: m.originalName,
    cloudVideoUrl: isImage ? null : sign(streamUrlOf(m.id)),
    cloudUrl: sign(isImage ? `/api/media/${m.id}/file` : streamUrlOf(m.id)),
    thumbnailUrl: signed(thumbnailUrlOf(m), sign),
    hlsUrl: isImage ? null : signed(hlsUrlOf(m), sign),
    position: m.position,
    duration: m.duration,
    metadata: { width: finite(m.metadata?.width), height: finite(m.metadata?.height) },
    altText: m.altText ?? null,
    ...moderationOf(m),
  };
}

export class UpdateSensitiveDto {
  @ApiProperty({ description: 'true: viewers see a cover with Show first; false: shown as it is (a mark by the moderators stays)' })
  @IsBoolean({ message: 'Sensitive must be true or false' })
  sensitive: boolean;
}
