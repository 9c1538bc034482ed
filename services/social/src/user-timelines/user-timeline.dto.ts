import { ApiProperty } from '@nestjs/swagger';
import { FeedTimelineDto, mapTimeline } from '../feed/feed.dto.js';
import type { UserTimelineRow } from './user-timeline.repository.js';

/** A timeline of a person's Timelines tab: a feed card, with its visibility and status (a person's own list holds drafts and private ones too). */
export class UserTimelineDto extends FeedTimelineDto {
  @ApiProperty({ enum: ['private', 'unlisted', 'public'] }) visibility: string;
  @ApiProperty({ enum: ['draft', 'processing', 'published'] }) status: string;
}

export const mapUserTimeline = (row: UserTimelineRow): UserTimelineDto => ({ ...mapTimeline(row), visibility: row.visibility, status: row.status });
