import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type VideoLikeStatus = ApiSchemas['VideoLikeStatusDto'];
export type VideoComment = ApiSchemas['VideoCommentDto'];

export const videoLikeKey = (videoId: string) => ['videos', videoId, 'liked'] as const;
export const videoCommentsKey = (videoId: string) => ['videos', videoId, 'comments'] as const;

export function useVideoLike(videoId: string) {
  return useQuery({
    queryKey: videoLikeKey(videoId),
    queryFn: () => unwrap(api.GET('/api/videos/{id}/liked', { params: { path: { id: videoId } } })),
  });
}

/** Like or unlike, shown at once and put back if the server refuses. */
export function useToggleVideoLike(videoId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (like: boolean) =>
      unwrap(like ? api.POST('/api/videos/{id}/like', { params: { path: { id: videoId } } }) : api.DELETE('/api/videos/{id}/like', { params: { path: { id: videoId } } })),
    onMutate: async (like) => {
      await client.cancelQueries({ queryKey: videoLikeKey(videoId) });
      const before = client.getQueryData<VideoLikeStatus>(videoLikeKey(videoId));
      if (before && before.isLiked !== like) {
        const likesCount = Math.max(0, before.likesCount + (like ? 1 : -1));
        client.setQueryData<VideoLikeStatus>(videoLikeKey(videoId), { isLiked: like, liked: like, likesCount });
      }
      return { before };
    },
    onError: (error, _like, context) => {
      console.error('Like failed', error);
      if (context?.before) client.setQueryData(videoLikeKey(videoId), context.before);
    },
    onSuccess: (status) => client.setQueryData(videoLikeKey(videoId), status),
  });
}

export function useVideoComments(videoId: string, enabled: boolean) {
  return useQuery({
    queryKey: videoCommentsKey(videoId),
    queryFn: () => unwrap(api.GET('/api/videos/{id}/comments', { params: { path: { id: videoId }, query: { limit: 100 } } })),
    enabled,
  });
}

/** Comments and replies: the list is read again after each change (counts, replies in place). */
export function useVideoCommentActions(videoId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: videoCommentsKey(videoId) });
  const add = useMutation({
    mutationFn: ({ content, parentId }: { content: string; parentId?: string }) =>
      unwrap(
        parentId
          ? api.POST('/api/videos/{id}/comments/{commentId}/replies', { params: { path: { id: videoId, commentId: parentId } }, body: { content } })
          : api.POST('/api/videos/{id}/comments', { params: { path: { id: videoId } }, body: { content } }),
      ),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (commentId: string) => unwrap(api.DELETE('/api/videos/{id}/comments/{commentId}', { params: { path: { id: videoId, commentId } } })),
    onSettled: refresh,
  });
  return { add, remove };
}
