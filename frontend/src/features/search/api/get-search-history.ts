import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { SEARCH_QUERY_KEY } from './search';

export type SearchHistoryEntry = ApiSchemas['SearchHistoryDto'];

export const RECENT_SEARCHES = 8;

export const SEARCH_HISTORY_QUERY_KEY = [...SEARCH_QUERY_KEY, 'history'] as const;

export function getSearchHistory(): Promise<SearchHistoryEntry[]> {
  return unwrap(api.GET('/api/search/history', { params: { query: { limit: RECENT_SEARCHES } } }));
}

/** The signed-in person's recent searches; searching records them, so they are read fresh. */
export const useSearchHistory = (enabled = true) =>
  useQuery({
    queryKey: SEARCH_HISTORY_QUERY_KEY,
    queryFn: getSearchHistory,
    staleTime: 0,
    enabled,
  });
