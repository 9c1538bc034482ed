import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { videosQueryKey } from './get-videos';
import type { Video } from './types';

export function updateVideoTitle(videoId: string, title: string): Promise<Video> {
  return unwrap(api.PATCH('/api/videos/{id}/title', { params: { path: { id: videoId } }, body: { title } }));
}

export function useUpdateVideoTitle(timelineId: string) {
  const queryClient = useQueryClient();
  const key = videosQueryKey(timelineId);
  return useMutation({
    mutationFn: ({ videoId, title }: { videoId: string; title: string }) => updateVideoTitle(videoId, title),
    onSuccess: (_answer, { videoId, title }) => {
      queryClient.setQueryData<Video[]>(key, (videos) => videos?.map((video) => (video.id === videoId ? { ...video, title } : video)));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
