import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, IsUUID, Max, Min } from 'class-validator';
import type { WatchPosition } from './watch-position.entity.js';

/** The longest an item can be (24 hours), as for recorded watch time. */
export const MAX_SECONDS = 86400;
const SECONDS = `Seconds must be a number from 0 to ${MAX_SECONDS}`;
const ITEM = 'Item id must be the id of a video or image';

export class SaveWatchPositionDto {
  @ApiProperty({ format: 'uuid', description: 'The video or image the viewer is at' })
  @IsUUID('all', { message: ITEM })
  itemId: string;

  @ApiProperty({ minimum: 0, maximum: MAX_SECONDS, description: 'Seconds into the item' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: SECONDS })
  @Min(0, { message: SECONDS })
  @Max(MAX_SECONDS, { message: SECONDS })
  seconds: number;
}

export class WatchPositionDto {
  @ApiProperty({ format: 'uuid' }) itemId: string;
  @ApiProperty({ description: 'Seconds into the item (one decimal)' }) seconds: number;
  @ApiProperty({ format: 'date-time', description: 'When it was last saved' }) updatedAt: string;
}

/** A person's place in a timeline; `position` is null when none is saved. */
export class WatchPositionAnswerDto {
  @ApiProperty({ type: WatchPositionDto, nullable: true }) position: WatchPositionDto | null;
}

export function mapWatchPosition(row: WatchPosition | null): WatchPositionAnswerDto {
  if (!row) return { position: null };
  return { position: { itemId: row.itemId, seconds: Math.round(row.seconds * 10) / 10, updatedAt: row.updatedAt.toISOString() } };
}
