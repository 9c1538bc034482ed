import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequestWithHeaders } from '../../../lib/api-client';
import type { FeedItem, FeedPage, FeedTab } from './types';

/** Items per page of the feed. */
export const FEED_PAGE_SIZE = 20;

export const FEED_QUERY_KEY = ['feed'] as const;
export const feedQueryKey = (tab: FeedTab) => [...FEED_QUERY_KEY, tab] as const;

/** One page of the signed-in user's feed; the next page's cursor comes in `X-Next-Cursor`. */
export async function getFeedPage(tab: FeedTab, cursor?: string): Promise<FeedPage> {
  const query = new URLSearchParams({ tab, limit: String(FEED_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  const { data, headers } = await apiRequestWithHeaders<FeedItem[]>('GET', `/api/feed?${query.toString()}`);
  const next = headers.get('X-Next-Cursor');
  return { items: Array.isArray(data) ? data : [], nextCursor: next && next !== cursor ? next : null };
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
