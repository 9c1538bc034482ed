import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** Spec 001, section 9: trending hashtags limit 10. */
export const TRENDING_LIMIT = 10;

export const trendingHashtagsQueryKey = ['hashtags', 'trending', TRENDING_LIMIT] as const;

export function getTrendingHashtags() {
  return unwrap(api.GET('/api/hashtags/trending', { params: { query: { limit: TRENDING_LIMIT } } }));
}

export const useTrendingHashtags = (enabled = true) => useQuery({ queryKey: trendingHashtagsQueryKey, queryFn: getTrendingHashtags, enabled });
