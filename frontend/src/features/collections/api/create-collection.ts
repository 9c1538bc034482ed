import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { addTimelineToCollection } from './add-collection-timeline';
import { collectionQueryKey } from './get-collection';
import { myCollectionsQueryKey } from './get-my-collections';
import { timelineCollectionsQueryKey } from './get-timeline-collections';
import type { Collection, CollectionInput, TimelineCollection } from './types';

/** Trimmed values as the server stores them: a blank description is none. */
export function collectionBody(values: { name: string; description: string; isPublic: boolean }): CollectionInput {
  const description = values.description.trim();
  return { name: values.name.trim(), description: description || null, isPublic: values.isPublic };
}

export function createCollection(body: CollectionInput): Promise<Collection> {
  return unwrap(api.POST('/api/collections', { body }));
}

export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCollection,
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionQueryKey(collection.id), collection);
      void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
    },
  });
}

/** Creates a collection from the Save sheet and puts the timeline in it. */
export function useCreateCollectionWithTimeline(timelineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CollectionInput) => {
      const collection = await createCollection(body);
      await addTimelineToCollection(collection.id, timelineId);
      return collection;
    },
    onSuccess: (collection) => {
      queryClient.setQueryData<TimelineCollection[]>(timelineCollectionsQueryKey(timelineId), (list) => [
        { ...collection, timelinesCount: collection.timelinesCount + 1, contains: true },
        ...(list ?? []).filter((item) => item.id !== collection.id),
      ]);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
      void queryClient.invalidateQueries({ queryKey: timelineCollectionsQueryKey(timelineId) });
    },
  });
}
