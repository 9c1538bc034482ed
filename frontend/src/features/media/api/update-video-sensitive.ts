import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Video } from './types';

/** Marks a video or image sensitive, or not (PATCH /api/videos/{id}/sensitive); a mark by the moderators stays. */
export function updateVideoSensitive(videoId: string, sensitive: boolean): Promise<Video> {
  return unwrap(api.PATCH('/api/videos/{id}/sensitive', { params: { path: { id: videoId } }, body: { sensitive } }));
}

/** Every cached list the item is in shows the server's answer. */
export function useUpdateVideoSensitive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ videoId, sensitive }: { videoId: string; sensitive: boolean }) => updateVideoSensitive(videoId, sensitive),
    onSuccess: (answer) => {
      queryClient.setQueriesData<Video[]>({ queryKey: ['media', 'videos'] }, (videos) => videos?.map((video) => (video.id === answer.id ? { ...video, sensitive: answer.sensitive } : video)));
    },
  });
}
