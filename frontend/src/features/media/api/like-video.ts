import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { videoLikeKey, type VideoLikeStatus } from './get-video-like';

/** Likes (POST) or unlikes (DELETE) a video. */
export function setVideoLiked(videoId: string, like: boolean): Promise<VideoLikeStatus> {
  const params = { params: { path: { id: videoId } } };
  return unwrap(like ? api.POST('/api/videos/{id}/like', params) : api.DELETE('/api/videos/{id}/like', params));
}

/** Like or unlike, shown at once and put back if the server refuses. */
export function useToggleVideoLike(videoId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (like: boolean) => setVideoLiked(videoId, like),
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
