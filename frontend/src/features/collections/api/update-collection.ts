import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { collectionQueryKey } from './get-collection';
import { myCollectionsQueryKey, type CollectionsPage } from './get-my-collections';
import { TIMELINE_COLLECTIONS_QUERY_KEY } from './get-timeline-collections';
import type { Collection, CollectionInput } from './types';

export function updateCollection(id: string, body: CollectionInput): Promise<Collection> {
  return unwrap(api.PUT('/api/collections/{id}', { params: { path: { id } }, body }));
}

export function useUpdateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CollectionInput }) => updateCollection(id, body),
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionQueryKey(collection.id), collection);
      queryClient.setQueryData<InfiniteData<CollectionsPage>>(myCollectionsQueryKey, (data) =>
        data
          ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((item) => (item.id === collection.id ? collection : item)) })) }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: TIMELINE_COLLECTIONS_QUERY_KEY });
    },
  });
}
