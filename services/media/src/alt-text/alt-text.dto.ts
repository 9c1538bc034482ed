import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString } from 'class-validator';
import { VideoDto } from '../media/media.dto.js';
import { MAX_IMAGE_ALT_TEXT, MAX_VIDEO_DESCRIPTION, toCleanAltText } from './alt-text-format.js';

export const ALT_TEXT_MUST_BE_TEXT = 'altText must be text';

export class UpdateAltTextDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_IMAGE_ALT_TEXT,
    description: `The image's alt text (at most ${MAX_IMAGE_ALT_TEXT} characters) or the video's short description (at most ${MAX_VIDEO_DESCRIPTION}). Stored as plain text: markup is removed (its words kept), control characters dropped, spaces collapsed, the whole trimmed; the limits count what remains.`,
  })
  @Transform(toCleanAltText)
  @IsString({ message: ALT_TEXT_MUST_BE_TEXT })
  altText: string;
}

export class MissingAltTextDto {
  @ApiProperty({ type: 'integer', description: 'How many of the timeline\'s images and videos have no alt text or description (those put off with "Add later" included); failed uploads are not counted' })
  count: number;

  @ApiProperty({ type: [VideoDto], description: 'Those items, in timeline order' })
  items: VideoDto[];
}
