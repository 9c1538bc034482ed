import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { REPORTABLE, type ReportableType } from './content-report.entity.js';
import type { ReportRow } from './report.repository.js';

/** Why something is reported: a short list, so moderation can sort and count. */
export const REPORT_REASONS = ['spam', 'harassment', 'hate', 'violence', 'nudity', 'misinformation', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const MAX_REPORT_DESCRIPTION = 1000;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateReportDto {
  @ApiProperty({ enum: REPORTABLE })
  @IsIn(REPORTABLE, { message: `contentType must be one of ${REPORTABLE.join(', ')}` })
  contentType: ReportableType;

  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'contentId must be an id' })
  contentId: string;

  @ApiProperty({ enum: REPORT_REASONS })
  @IsIn(REPORT_REASONS, { message: `Reason must be one of ${REPORT_REASONS.join(', ')}` })
  reason: ReportReason;

  @ApiPropertyOptional({ maxLength: MAX_REPORT_DESCRIPTION, description: 'What is wrong, in the reporter\'s words' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Description must be text' })
  @MaxLength(MAX_REPORT_DESCRIPTION, { message: `Description must be at most ${MAX_REPORT_DESCRIPTION} characters` })
  description?: string;
}

export class ReportDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: REPORTABLE }) contentType: ReportableType;
  @ApiProperty({ format: 'uuid' }) contentId: string;
  @ApiProperty({ enum: REPORT_REASONS }) reason: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: ['pending', 'reviewed', 'resolved', 'dismissed'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const mapReport = (row: ReportRow): ReportDto => ({ ...row, createdAt: row.createdAt.toISOString() });
