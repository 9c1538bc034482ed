import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, nextCursorOf } from '../../../lib/api-client';
import { COLLECTIONS_QUERY_KEY, type Collection } from './types';

/** Collections per page of 'My Collections'. */
export const COLLECTIONS_PAGE_SIZE = 30;

export const myCollectionsQueryKey = [...COLLECTIONS_QUERY_KEY, 'mine'] as const;

export interface CollectionsPage {
  items: Collection[];
  nextCursor: string | null;
}

export async function getMyCollectionsPage(cursor?: string): Promise<CollectionsPage> {
  const { data, response } = await api.GET('/api/collections', {
    params: { query: cursor ? { limit: COLLECTIONS_PAGE_SIZE, cursor } : { limit: COLLECTIONS_PAGE_SIZE } },
  });
  return { items: data ?? [], nextCursor: nextCursorOf(response, cursor) };
}

export function getMyCollectionsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: myCollectionsQueryKey,
    queryFn: ({ pageParam }) => getMyCollectionsPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useMyCollections() {
  return useInfiniteQuery(getMyCollectionsQueryOptions());
}
