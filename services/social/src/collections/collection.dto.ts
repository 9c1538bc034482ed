import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, IsUUID, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { toCleanName } from '@timeliner/platform';
import type { TimelineSummary } from '../access/timeline-summary.repository.js';
import type { CollectionItemRow, CollectionRow } from './collection.repository.js';

export const MAX_COLLECTION_NAME = 100;
export const MAX_COLLECTION_DESCRIPTION = 500;
/** The most timelines one reorder may list (and so the most a collection can be reordered with). */
export const MAX_COLLECTION_TIMELINES = 1000;
/** Spec 001: 'Collection name required (trimmed)'. */
export const COLLECTION_NAME_REQUIRED = 'Collection name is required';
export const ORDER_MISMATCH = 'The order must list every timeline of the collection once';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const NAME_TOO_LONG = `Collection name must be at most ${MAX_COLLECTION_NAME} characters`;
const DESCRIPTION_TOO_LONG = `Description must be at most ${MAX_COLLECTION_DESCRIPTION} characters`;
const IS_PUBLIC = 'isPublic must be true or false';
const nameMessage = ({ value }: { value: unknown }) => (value === undefined || value === null ? COLLECTION_NAME_REQUIRED : 'Collection name must be text');

/** `POST /api/collections`. */
export class CreateCollectionDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_COLLECTION_NAME, description: 'Trimmed before it is stored', example: 'Road trips' })
  @Transform(toCleanName)
  @IsString({ message: nameMessage })
  @MinLength(1, { message: COLLECTION_NAME_REQUIRED })
  @MaxLength(MAX_COLLECTION_NAME, { message: NAME_TOO_LONG })
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_COLLECTION_DESCRIPTION, description: 'Trimmed; blank is stored as none' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Description must be text' })
  @MaxLength(MAX_COLLECTION_DESCRIPTION, { message: DESCRIPTION_TOO_LONG })
  description?: string | null;

  @ApiPropertyOptional({ default: true, description: 'Public collections are readable by everyone; private ones by their owner only' })
  @IsOptional()
  @IsBoolean({ message: IS_PUBLIC })
  isPublic?: boolean;
}

/** `PUT /api/collections/{id}`: the fields given change, the others stay; description null clears it. */
export class UpdateCollectionDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_COLLECTION_NAME, description: 'Trimmed; must not be blank' })
  @Transform(toCleanName)
  @ValidateIf((dto: UpdateCollectionDto) => dto.name !== undefined)
  @IsString({ message: nameMessage })
  @MinLength(1, { message: COLLECTION_NAME_REQUIRED })
  @MaxLength(MAX_COLLECTION_NAME, { message: NAME_TOO_LONG })
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_COLLECTION_DESCRIPTION, description: 'Trimmed; blank or null clears it' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Description must be text' })
  @MaxLength(MAX_COLLECTION_DESCRIPTION, { message: DESCRIPTION_TOO_LONG })
  description?: string | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: IS_PUBLIC })
  isPublic?: boolean;
}

/** `POST /api/collections/{id}/timelines`. */
export class AddCollectionTimelineDto {
  @ApiProperty({ format: 'uuid', description: 'A timeline the caller may see' })
  @IsUUID('all', { message: 'timelineId must be an id' })
  timelineId: string;
}

/** `PUT /api/collections/{id}/timelines/order`. */
export class CollectionOrderDto {
  @ApiProperty({ type: [String], format: 'uuid', maxItems: MAX_COLLECTION_TIMELINES, description: 'Every timeline of the collection, once, in the new order' })
  @IsArray({ message: 'timelineIds must be a list of ids' })
  @ArrayMaxSize(MAX_COLLECTION_TIMELINES, { message: `timelineIds may list at most ${MAX_COLLECTION_TIMELINES} ids` })
  @IsUUID('all', { each: true, message: 'timelineIds must be a list of ids' })
  timelineIds: string[];
}

/** Spec 001's Collection (id, name, description, isPublic, createdAt) with its owner and size. */
export class CollectionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The owner' }) userId: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() isPublic: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many timelines it holds (the list leaves out those the caller may not see)' }) timelinesCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** One of the caller's collections in a "Save to collection" sheet. */
export class TimelineCollectionDto extends CollectionDto {
  @ApiProperty({ description: 'Whether the timeline in the path is in this collection' }) contains: boolean;
}

/** What a list shows of a timeline (the feed's read model of it). */
export class TimelineSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: 'integer' }) videoCount: number;
  @ApiProperty({ type: 'integer', description: 'Seconds' }) duration: number;
  @ApiProperty({ format: 'uuid' }) creatorId: string;
  @ApiProperty() creatorName: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The first ready video, for the preview (GET /api/videos/{id}/stream)' }) coverMediaId: string | null;
}

/** A timeline at its place in a collection. */
export class CollectionTimelineDto extends TimelineSummaryDto {
  @ApiProperty({ format: 'date-time' }) addedAt: string;
  @ApiProperty({ type: 'integer', description: 'Ascending order within the collection' }) position: number;
}

export const mapCollection = (row: CollectionRow): CollectionDto => ({
  id: row.id,
  userId: row.userId,
  name: row.name,
  description: row.description,
  isPublic: row.isPublic,
  timelinesCount: row.timelinesCount,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const mapCollectionItem = (item: CollectionItemRow, summary: TimelineSummary): CollectionTimelineDto => ({
  ...summary,
  addedAt: item.addedAt.toISOString(),
  position: item.position,
});
