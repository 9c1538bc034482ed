import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, apiRequestWithHeaders, type ApiSchemas } from '../../../lib/api-client';

export type SearchResult = ApiSchemas['SearchResultDto'];
export type SearchTimeline = ApiSchemas['SearchTimelineDto'];
export type SearchUser = ApiSchemas['SearchUserDto'];
export type Hashtag = ApiSchemas['HashtagDto'];
export type SearchHistoryEntry = ApiSchemas['SearchHistoryDto'];

/** Spec 001, section 9: popular timelines limit 12, trending hashtags limit 10. */
export const POPULAR_LIMIT = 12;
export const TRENDING_LIMIT = 10;
/** Results of each kind on the All tab, and per page of one kind. */
export const ALL_LIMIT = 6;
export const PAGE_LIMIT = 20;
export const RECENT_SEARCHES = 8;

export type SearchKind = 'timelines' | 'users';

const SEARCH_KEY = ['search'] as const;
export const HISTORY_KEY = [...SEARCH_KEY, 'history'] as const;

export const searchAllQueryOptions = (q: string) =>
  queryOptions({
    queryKey: [...SEARCH_KEY, 'all', q],
    queryFn: () => apiRequest<SearchResult>('GET', `/api/search/enhanced?${new URLSearchParams({ q, limit: String(ALL_LIMIT) }).toString()}`),
  });

interface SearchPage<K extends SearchKind> {
  items: SearchResult[K];
  nextCursor: string | null;
}

/** One kind of result, page by page; the next page's cursor comes in `X-Next-Cursor`. */
export function searchKindQueryOptions<K extends SearchKind>(q: string, kind: K) {
  return infiniteQueryOptions({
    queryKey: [...SEARCH_KEY, kind, q],
    queryFn: async ({ pageParam }): Promise<SearchPage<K>> => {
      const params = new URLSearchParams({ q, type: kind, limit: String(PAGE_LIMIT) });
      if (pageParam) params.set('cursor', pageParam);
      const { data, headers } = await apiRequestWithHeaders<SearchResult>('GET', `/api/search/enhanced?${params.toString()}`);
      const next = headers.get('X-Next-Cursor');
      return { items: data[kind], nextCursor: next && next !== pageParam ? next : null };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export const useSearchAll = (q: string, enabled: boolean) => useQuery({ ...searchAllQueryOptions(q), enabled });
export const useSearchKind = <K extends SearchKind>(q: string, kind: K, enabled: boolean) => useInfiniteQuery({ ...searchKindQueryOptions(q, kind), enabled });

export const usePopularTimelines = (enabled = true) =>
  useQuery({
    queryKey: ['discover', 'popular', POPULAR_LIMIT],
    queryFn: () => apiRequest<SearchTimeline[]>('GET', `/api/discover/popular/timeline?limit=${POPULAR_LIMIT}`),
    enabled,
  });

export const useTrendingHashtags = (enabled = true) =>
  useQuery({
    queryKey: ['hashtags', 'trending', TRENDING_LIMIT],
    queryFn: () => apiRequest<Hashtag[]>('GET', `/api/hashtags/trending?limit=${TRENDING_LIMIT}`),
    enabled,
  });

/** The signed-in person's recent searches; searching records them, so they are read fresh. */
export const useSearchHistory = (enabled = true) =>
  useQuery({
    queryKey: HISTORY_KEY,
    queryFn: () => apiRequest<SearchHistoryEntry[]>('GET', `/api/search/history?limit=${RECENT_SEARCHES}`),
    staleTime: 0,
    enabled,
  });

export function useClearSearchHistory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/search/history'),
    onSuccess: () => client.setQueryData(HISTORY_KEY, []),
  });
}

export function useRemoveSearchHistoryEntry() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/search/history/${encodeURIComponent(id)}`),
    onSuccess: (_answer, id) => client.setQueryData<SearchHistoryEntry[]>(HISTORY_KEY, (entries) => entries?.filter((entry) => entry.id !== id)),
  });
}

/** Remembers which result a search led to (best effort: opening the result never waits for it). */
export function recordSearchResult(query: string, resultType: 'timeline' | 'user' | 'hashtag', resultId: string): void {
  if (!query.trim()) return;
  apiRequest('POST', '/api/search/history', { query: query.trim().slice(0, 200), resultType, resultId }).catch(() => undefined);
}
