import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, nextCursorOf, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type SearchResult = ApiSchemas['SearchResultDto'];
export type SearchTimeline = ApiSchemas['SearchTimelineDto'];
export type SearchUser = ApiSchemas['SearchUserDto'];
export type Hashtag = ApiSchemas['HashtagDto'];

/** Results of each kind on the All tab, and per page of one kind. */
export const ALL_LIMIT = 6;
export const PAGE_LIMIT = 20;

export type SearchKind = 'timelines' | 'users';

/** Every search the search page makes (its recent searches too) starts with this key. */
export const SEARCH_QUERY_KEY = ['search'] as const;

export const searchAllQueryOptions = (q: string) =>
  queryOptions({
    queryKey: [...SEARCH_QUERY_KEY, 'all', q],
    queryFn: () => unwrap(api.GET('/api/search/enhanced', { params: { query: { q, limit: ALL_LIMIT } } })),
  });

interface SearchPage<K extends SearchKind> {
  items: SearchResult[K];
  nextCursor: string | null;
}

/** One kind of result, page by page; the next page's cursor comes in `X-Next-Cursor`. */
export function searchKindQueryOptions<K extends SearchKind>(q: string, kind: K) {
  return infiniteQueryOptions({
    queryKey: [...SEARCH_QUERY_KEY, kind, q],
    queryFn: async ({ pageParam }): Promise<SearchPage<K>> => {
      const query = { q, type: kind, limit: PAGE_LIMIT };
      const { data, response } = await api.GET('/api/search/enhanced', { params: { query: pageParam ? { ...query, cursor: pageParam } : query } });
      return { items: data?.[kind] ?? [], nextCursor: nextCursorOf(response, pageParam) };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export const useSearchAll = (q: string, enabled: boolean) => useQuery({ ...searchAllQueryOptions(q), enabled });
export const useSearchKind = <K extends SearchKind>(q: string, kind: K, enabled: boolean) => useInfiniteQuery({ ...searchKindQueryOptions(q, kind), enabled });
