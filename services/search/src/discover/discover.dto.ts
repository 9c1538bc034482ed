import { PageLimit } from '@timeliner/platform';

export const MAX_DISCOVER_LIMIT = 50;
export const POPULAR_DEFAULT_LIMIT = 12;
export const TRENDING_DEFAULT_LIMIT = 10;

export class PopularQueryDto {
  @PageLimit({ max: MAX_DISCOVER_LIMIT, default: POPULAR_DEFAULT_LIMIT })
  limit?: number;
}

export class TrendingQueryDto {
  @PageLimit({ max: MAX_DISCOVER_LIMIT, default: TRENDING_DEFAULT_LIMIT })
  limit?: number;
}
