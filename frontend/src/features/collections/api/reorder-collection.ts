import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { collectionTimelinesQueryKey } from './get-collection-timelines';
import type { CollectionTimeline } from './types';

export function reorderCollection(collectionId: string, timelineIds: string[]): Promise<CollectionTimeline[]> {
  return unwrap(api.PUT('/api/collections/{id}/timelines/order', { params: { path: { id: collectionId } }, body: { timelineIds } }));
}

/** Saves a new order at once; the list shows it before the answer and goes back on failure. */
export function useReorderCollection(collectionId: string) {
  const queryClient = useQueryClient();
  const key = collectionTimelinesQueryKey(collectionId);
  return useMutation({
    mutationFn: (timelines: CollectionTimeline[]) => reorderCollection(collectionId, timelines.map((item) => item.id)),
    onMutate: async (timelines) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CollectionTimeline[]>(key);
      queryClient.setQueryData(key, timelines);
      return { previous };
    },
    onSuccess: (list) => {
      if (Array.isArray(list)) queryClient.setQueryData(key, list);
    },
    onError: (_, __, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
