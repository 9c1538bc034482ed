import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageLimit } from '@timeliner/platform';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { MAX_QUERY_LENGTH } from '../text/search-query.js';
import type { HistoryRow } from './search-history.repository.js';

export const HISTORY_DEFAULT_LIMIT = 10;
export const HISTORY_MAX_LIMIT = 50;
export const RESULT_TYPES = ['timeline', 'user', 'hashtag'] as const;

export class HistoryQueryDto {
  @PageLimit({ max: HISTORY_MAX_LIMIT, default: HISTORY_DEFAULT_LIMIT })
  limit?: number;
}

/** A result the person opened from a search: kept with the search, so recent searches can lead back to it. */
export class RecordSearchDto {
  @ApiProperty({ maxLength: MAX_QUERY_LENGTH })
  @IsString({ message: 'Query must be text' })
  @IsNotEmpty({ message: 'Query is required' })
  @MaxLength(MAX_QUERY_LENGTH, { message: `Query must be at most ${MAX_QUERY_LENGTH} characters` })
  query: string;

  @ApiPropertyOptional({ enum: RESULT_TYPES })
  @IsOptional()
  @IsIn(RESULT_TYPES, { message: `Result type must be one of ${RESULT_TYPES.join(', ')}` })
  resultType?: (typeof RESULT_TYPES)[number];

  @ApiPropertyOptional({ description: 'Timeline or user id, or hashtag name; required with resultType' })
  @ValidateIf((dto: RecordSearchDto) => dto.resultType !== undefined || dto.resultId !== undefined)
  @IsString({ message: 'Result id must be text' })
  @IsNotEmpty({ message: 'Result id is required with a result type' })
  @MaxLength(100, { message: 'Result id must be at most 100 characters' })
  resultId?: string;
}

/** Spec 001 search_history: query, resultType, resultId; with its id and time. */
export class SearchHistoryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() query: string;
  @ApiProperty({ type: String, nullable: true, enum: RESULT_TYPES }) resultType: string | null;
  @ApiProperty({ type: String, nullable: true }) resultId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const mapHistory = (row: HistoryRow): SearchHistoryDto => ({ id: row.id, query: row.query, resultType: row.resultType, resultId: row.resultId, createdAt: row.searchedAt });
