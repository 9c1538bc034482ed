import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { myCollectionsQueryKey } from './get-my-collections';
import { COLLECTIONS_QUERY_KEY, type Collection } from './types';

export const collectionQueryKey = (id: string) => [...COLLECTIONS_QUERY_KEY, 'detail', id] as const;

export function getCollection(id: string): Promise<Collection> {
  return unwrap(api.GET('/api/collections/{id}', { params: { path: { id } } }));
}

export function getCollectionQueryOptions(id: string) {
  return queryOptions({
    queryKey: collectionQueryKey(id),
    queryFn: () => getCollection(id),
  });
}

export function useCollection(id: string) {
  return useQuery(getCollectionQueryOptions(id));
}

/** Lists that show a collection's contents or counts, stale after a change to it. */
export function invalidateCollection(queryClient: QueryClient, collectionId: string) {
  void queryClient.invalidateQueries({ queryKey: collectionQueryKey(collectionId) });
  void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
}
