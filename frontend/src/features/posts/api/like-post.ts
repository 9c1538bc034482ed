import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import type { Post, PostStore } from './types';

export type PostLikeStatus = ApiSchemas['PostLikeStatusDto'];

/** Likes (POST) or unlikes (DELETE) a post. */
export function setPostLiked(id: string, liked: boolean): Promise<PostLikeStatus> {
  const params = { params: { path: { id } } };
  return unwrap(liked ? api.POST('/api/posts/{id}/like', params) : api.DELETE('/api/posts/{id}/like', params));
}

export const isPostLiked = (post: Post) => post.isLiked || post.liked;

/** The like toggle: the post changes at once and goes back if the server refuses (only logged). */
export function useLikePost(postId: string, store: PostStore) {
  return useMutation({
    mutationFn: (liked: boolean) => setPostLiked(postId, liked),
    onMutate: (liked) =>
      store.patchPost(postId, (current) => ({
        liked,
        isLiked: liked,
        likesCount: Math.max(0, current.likesCount + (liked ? 1 : -1)),
      })),
    onError: (_error, _liked, undo) => undo?.(),
    onSuccess: (status, liked) => {
      const now = status.isLiked ?? status.liked ?? liked;
      store.patchPost(postId, (current) => ({
        liked: now,
        isLiked: now,
        likesCount: typeof status.likesCount === 'number' ? status.likesCount : current.likesCount,
      }));
    },
  });
}
