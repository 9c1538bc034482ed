import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { collectionQueryKey } from './get-collection';
import { myCollectionsQueryKey, type CollectionsPage } from './get-my-collections';
import { TIMELINE_COLLECTIONS_QUERY_KEY } from './get-timeline-collections';

export async function deleteCollection(id: string): Promise<void> {
  await api.DELETE('/api/collections/{id}', { params: { path: { id } } });
}

export function useDeleteCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCollection,
    onSuccess: (_, id) => {
      queryClient.setQueryData<InfiniteData<CollectionsPage>>(myCollectionsQueryKey, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id) })) } : data,
      );
      // Not the page still showing it (it is leaving): removing its query would fetch it again.
      queryClient.removeQueries({ queryKey: collectionQueryKey(id), type: 'inactive' });
      void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
      void queryClient.invalidateQueries({ queryKey: TIMELINE_COLLECTIONS_QUERY_KEY });
    },
  });
}
