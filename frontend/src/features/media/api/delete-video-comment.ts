import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { videoCommentsKey } from './get-video-comments';

export async function deleteVideoComment(videoId: string, commentId: string): Promise<void> {
  await api.DELETE('/api/videos/{id}/comments/{commentId}', { params: { path: { id: videoId, commentId } } });
}

/** The list is read again after each change (counts, replies in place). */
export function useDeleteVideoComment(videoId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteVideoComment(videoId, commentId),
    onSettled: () => client.invalidateQueries({ queryKey: videoCommentsKey(videoId) }),
  });
}
