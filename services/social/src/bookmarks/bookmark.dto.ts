import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TimelineSummaryDto } from '../collections/collection.dto.js';
import { PostDto } from '../posts/post.dto.js';

/** One saved item: a post or a timeline, with what its card needs. */
export class BookmarkDto {
  @ApiProperty({ enum: ['post', 'timeline'] }) type: 'post' | 'timeline';
  @ApiProperty({ format: 'uuid', description: 'The post or timeline' }) id: string;
  @ApiProperty({ format: 'date-time' }) bookmarkedAt: string;
  @ApiPropertyOptional({ type: PostDto, description: 'When type is post' }) post?: PostDto;
  @ApiPropertyOptional({ type: TimelineSummaryDto, description: 'When type is timeline' }) timeline?: TimelineSummaryDto;
}
