import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_DISCOVER_LIMIT = 50;
export const POPULAR_DEFAULT_LIMIT = 12;
export const TRENDING_DEFAULT_LIMIT = 10;

const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MAX_DISCOVER_LIMIT}`;

export class PopularQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_DISCOVER_LIMIT, default: POPULAR_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_DISCOVER_LIMIT, { message: LIMIT_MESSAGE })
  limit?: number;
}

export class TrendingQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_DISCOVER_LIMIT, default: TRENDING_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_DISCOVER_LIMIT, { message: LIMIT_MESSAGE })
  limit?: number;
}
