import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { videoCaptionsQueryKey } from './get-video-captions';

export async function deleteVideoCaption(videoId: string, language: string): Promise<void> {
  await api.DELETE('/api/videos/{id}/captions/{language}', { params: { path: { id: videoId, language } } });
}

export function useDeleteVideoCaption(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: string) => deleteVideoCaption(videoId, language),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: videoCaptionsQueryKey(videoId) }),
  });
}
