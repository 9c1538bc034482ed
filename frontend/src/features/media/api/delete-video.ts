import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { videosQueryKey } from './get-videos';

export async function deleteVideo(videoId: string): Promise<void> {
  await api.DELETE('/api/videos/{id}', { params: { path: { id: videoId } } });
}

/** Deletes a video; `onDeleted` lets the page refresh what depends on it (the timeline's counts). */
export function useDeleteVideo(timelineId: string, { onDeleted }: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (videoId: string) => deleteVideo(videoId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: videosQueryKey(timelineId) });
      onDeleted?.();
    },
  });
}
