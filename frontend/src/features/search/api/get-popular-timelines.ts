import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** Spec 001, section 9: popular timelines limit 12. */
export const POPULAR_LIMIT = 12;

export const popularTimelinesQueryKey = ['discover', 'popular', POPULAR_LIMIT] as const;

export function getPopularTimelines() {
  return unwrap(api.GET('/api/discover/popular/timeline', { params: { query: { limit: POPULAR_LIMIT } } }));
}

export const usePopularTimelines = (enabled = true) => useQuery({ queryKey: popularTimelinesQueryKey, queryFn: getPopularTimelines, enabled });
