import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, nextCursorOf } from '../../../lib/api-client';
import type { FeedPage, FeedTab } from './types';

/** Items per page of the feed. */
export const FEED_PAGE_SIZE = 20;

/**
 * Every cached page of every feed tab, and nothing else: the feed's cache rewrites (a like, a new
 * post) treat what they find under this key as feed pages.
 */
export const FEED_QUERY_KEY = ['feed', 'list'] as const;
export const feedQueryKey = (tab: FeedTab) => [...FEED_QUERY_KEY, tab] as const;

/** One page of the signed-in user's feed; the next page's cursor comes in `X-Next-Cursor`. */
export async function getFeedPage(tab: FeedTab, cursor?: string): Promise<FeedPage> {
  const { data, response } = await api.GET('/api/feed', {
    params: { query: cursor ? { tab, limit: FEED_PAGE_SIZE, cursor } : { tab, limit: FEED_PAGE_SIZE } },
  });
  return { items: Array.isArray(data) ? data : [], nextCursor: nextCursorOf(response, cursor) };
}

export function getFeedQueryOptions(tab: FeedTab) {
  return infiniteQueryOptions({
    queryKey: feedQueryKey(tab),
    queryFn: ({ pageParam }) => getFeedPage(tab, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useFeed(tab: FeedTab, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...getFeedQueryOptions(tab), enabled });
}
