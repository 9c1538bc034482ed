import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { videosQueryKey } from './get-videos';
import type { Video } from './types';

/** Saves a manual order; the answer is the videos in it. */
export function reorderVideos(timelineId: string, videoIds: string[]): Promise<Video[]> {
  return unwrap(api.POST('/api/timelines/{id}/videos/reorder', { params: { path: { id: timelineId } }, body: { videoIds } }));
}

/**
 * Saves a new manual order. The list shows the new order at once and goes back to the old one if
 * the server refuses it.
 */
export function useReorderVideos(timelineId: string, { onError }: { onError?: (error: unknown) => void } = {}) {
  const queryClient = useQueryClient();
  const key = videosQueryKey(timelineId);
  return useMutation({
    mutationFn: (ordered: Video[]) => reorderVideos(timelineId, ordered.map((video) => video.id)),
    onMutate: async (ordered) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Video[]>(key);
      queryClient.setQueryData<Video[]>(key, ordered.map((video, position) => ({ ...video, position })));
      return { previous };
    },
    onError: (error, _ordered, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      onError?.(error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
