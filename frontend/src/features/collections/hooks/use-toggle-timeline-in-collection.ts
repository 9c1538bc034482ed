import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addTimelineToCollection } from '../api/add-collection-timeline';
import { invalidateCollection } from '../api/get-collection';
import { timelineCollectionsQueryKey } from '../api/get-timeline-collections';
import { removeTimelineFromCollection } from '../api/remove-collection-timeline';
import type { TimelineCollection } from '../api/types';

/**
 * Adds a timeline to a collection or takes it out, from the Save sheet: the checkbox changes at
 * once and goes back (with the error) when the server refuses.
 */
export function useToggleTimelineInCollection(timelineId: string) {
  const queryClient = useQueryClient();
  const key = timelineCollectionsQueryKey(timelineId);
  const setContains = (collectionId: string, contains: boolean) =>
    queryClient.setQueryData<TimelineCollection[]>(key, (list) =>
      list?.map((item) =>
        item.id === collectionId && item.contains !== contains
          ? { ...item, contains, timelinesCount: Math.max(0, item.timelinesCount + (contains ? 1 : -1)) }
          : item,
      ),
    );
  return useMutation({
    mutationFn: ({ collectionId, contains }: { collectionId: string; contains: boolean }) =>
      contains ? addTimelineToCollection(collectionId, timelineId) : removeTimelineFromCollection(collectionId, timelineId),
    onMutate: async ({ collectionId, contains }) => {
      await queryClient.cancelQueries({ queryKey: key });
      setContains(collectionId, contains);
    },
    onError: (_, { collectionId, contains }) => setContains(collectionId, !contains),
    onSettled: (_, __, { collectionId }) => invalidateCollection(queryClient, collectionId),
  });
}
