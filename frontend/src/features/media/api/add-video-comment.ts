import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { videoCommentsKey, type VideoComment } from './get-video-comments';

/** A comment on a video, or a reply to one of its comments (`parentId`). */
export function addVideoComment(videoId: string, content: string, parentId?: string): Promise<VideoComment> {
  return unwrap(
    parentId
      ? api.POST('/api/videos/{id}/comments/{commentId}/replies', { params: { path: { id: videoId, commentId: parentId } }, body: { content } })
      : api.POST('/api/videos/{id}/comments', { params: { path: { id: videoId } }, body: { content } }),
  );
}

/** The list is read again after each change (counts, replies in place). */
export function useAddVideoComment(videoId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ content, parentId }: { content: string; parentId?: string }) => addVideoComment(videoId, content, parentId),
    onSettled: () => client.invalidateQueries({ queryKey: videoCommentsKey(videoId) }),
  });
}
