import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
export const MAX_EXPORT_TITLE = 200;
export const EXPORT_QUALITIES = ['720p', '1080p'] as const;
export type ExportQuality = (typeof EXPORT_QUALITIES)[number];

export class ExportOptionsDto {
  @ApiPropertyOptional({ enum: EXPORT_QUALITIES, description: 'Largest output height; default 1080p' })
  @IsOptional()
  @IsIn(EXPORT_QUALITIES, { message: 'options.quality must be 720p or 1080p' })
  quality?: ExportQuality;

  @ApiPropertyOptional({
    maxLength: MAX_EXPORT_TITLE,
    description: "The timeline's title (trimmed): the file is named from it, every non-alphanumeric character as `_`, plus `.mp4`; default `timeline`",
  })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'options.title must be a string' })
  @MaxLength(MAX_EXPORT_TITLE, { message: `options.title must be at most ${MAX_EXPORT_TITLE} characters` })
  title?: string;
}

export class ExportRequestDto {
  @ApiPropertyOptional({ type: ExportOptionsDto })
  @IsOptional()
  @IsObject({ message: 'options must be an object' })
  @ValidateNested({ message: 'options must be an object' })
  @Type(() => ExportOptionsDto)
  options?: ExportOptionsDto;
}

export class ExportResultDto {
  @ApiProperty({ description: 'GET it to download the MP4 (`Content-Disposition: attachment`); signed, valid for one to two hours, no bearer header needed' })
  downloadUrl: string;

  @ApiProperty({ example: 'My_trip.mp4' })
  fileName: string;

  @ApiProperty({ format: 'uuid' })
  exportId: string;
}

export class ExportPendingDto {
  @ApiProperty({ format: 'uuid' })
  exportId: string;

  @ApiProperty({ enum: ['queued', 'processing'] })
  status: string;
}

export class ExportStatusDto {
  @ApiProperty({ format: 'uuid' })
  exportId: string;

  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'error'] })
  status: string;

  @ApiProperty({ example: 'My_trip.mp4' })
  fileName: string;

  @ApiPropertyOptional({ description: 'Once completed: the signed download URL, as POST /export answers it' })
  downloadUrl?: string;

  @ApiPropertyOptional({ description: 'Once failed: why' })
  error?: string;
}

/** The download name: every non-alphanumeric character of the title as `_`, plus `.mp4`. */
export function exportFileName(title: string | undefined): string {
  const base = (title ?? '').trim() || 'timeline';
  return `${base.replace(/[^A-Za-z0-9]/gu, '_')}.mp4`;
}
