import { ApiProperty } from '@nestjs/swagger';
import type { CaptionSummary } from './captions.repository.js';

/** One caption track of a video. */
export class CaptionTrackDto {
  @ApiProperty({ example: 'en', description: 'BCP 47 language tag' }) language: string;
  @ApiProperty({ type: 'integer' }) cueCount: number;
  @ApiProperty({ enum: ['vtt', 'srt'], description: 'The format of the uploaded file (SRT is converted to WebVTT)' }) sourceFormat: 'vtt' | 'srt';
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ description: 'The WebVTT file, a signed URL that opens without the bearer header for a while (a <track> src)' }) url: string;
}

export const captionPath = (mediaId: string, language: string, revision: number): string =>
  `/api/videos/${mediaId}/captions/${encodeURIComponent(language)}?v=${revision}`;

export const mapCaption = (row: CaptionSummary, sign: (url: string) => string): CaptionTrackDto => ({
  language: row.language,
  cueCount: row.cueCount,
  sourceFormat: row.sourceFormat === 'srt' ? 'srt' : 'vtt',
  updatedAt: new Date(row.updatedAt).toISOString(),
  url: sign(captionPath(row.mediaId, row.language, row.revision)),
});
