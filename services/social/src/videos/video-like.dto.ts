import { ApiProperty } from '@nestjs/swagger';

/** Spec 001 reads `isLiked`; `liked` is the same answer under the posts' name. */
export class VideoLikeStatusDto {
  @ApiProperty({ description: 'Whether the caller likes the video (false for anonymous callers)' }) isLiked: boolean;
  @ApiProperty({ description: 'Same as isLiked' }) liked: boolean;
  @ApiProperty({ type: 'integer', minimum: 0 }) likesCount: number;
}
