import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { invalidateCollection } from './get-collection';
import { collectionTimelinesQueryKey } from './get-collection-timelines';
import { timelineCollectionsQueryKey } from './get-timeline-collections';
import type { CollectionTimeline } from './types';

export function removeTimelineFromCollection(collectionId: string, timelineId: string) {
  return unwrap(api.DELETE('/api/collections/{id}/timelines/{timelineId}', { params: { path: { id: collectionId, timelineId } } }));
}

export function useRemoveFromCollection(collectionId: string) {
  const queryClient = useQueryClient();
  const key = collectionTimelinesQueryKey(collectionId);
  return useMutation({
    mutationFn: (timelineId: string) => removeTimelineFromCollection(collectionId, timelineId),
    onMutate: async (timelineId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CollectionTimeline[]>(key);
      queryClient.setQueryData<CollectionTimeline[]>(key, (list) => list?.filter((item) => item.id !== timelineId));
      return { previous };
    },
    onError: (_, __, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: (_, __, timelineId) => {
      invalidateCollection(queryClient, collectionId);
      void queryClient.invalidateQueries({ queryKey: timelineCollectionsQueryKey(timelineId) });
    },
  });
}
