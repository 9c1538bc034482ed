import { ApiProperty } from '@nestjs/swagger';
import { FeedTimelineDto } from '../feed/feed.dto.js';

/** A timeline of a person's Timelines tab: a feed card, with its visibility and status (a person's own list holds drafts and private ones too). */
export class UserTimelineDto extends FeedTimelineDto {
  @ApiProperty({ enum: ['private', 'unlisted', 'public'] }) visibility: string;
  @ApiProperty({ enum: ['draft', 'processing', 'published'] }) status: string;
}
