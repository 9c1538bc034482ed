import { ApiProperty } from '@nestjs/swagger';

/** Spec 000 reads `isLiked`; `liked` is the same answer under the posts' name. */
export class TimelineLikeStatusDto {
  @ApiProperty({ description: 'Whether the caller likes the timeline (false for anonymous callers)' }) isLiked: boolean;
  @ApiProperty({ description: 'Same as isLiked' }) liked: boolean;
  @ApiProperty({ type: 'integer', minimum: 0 }) likesCount: number;
}

export class TimelineBookmarkStatusDto {
  @ApiProperty({ description: 'Whether the caller bookmarked the timeline (false for anonymous callers)' }) isBookmarked: boolean;
  @ApiProperty({ description: 'Same as isBookmarked' }) bookmarked: boolean;
}
