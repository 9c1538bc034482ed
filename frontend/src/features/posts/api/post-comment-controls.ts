import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { postCommentsQueryKey } from './get-post-comments';
import type { PostStore } from './types';

export type PostCommentSettings = ApiSchemas['CommentSettingsDto'];

/** Who may comment on the post, whether the caller may and why not; its author's settings and queue count. */
export const postCommentSettingsQueryKey = (id: string) => ['posts', 'comments', id, 'settings'] as const;

export function usePostCommentSettings(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: postCommentSettingsQueryKey(id),
    queryFn: () => unwrap(api.GET('/api/posts/{id}/comment-settings', { params: { path: { id } } })),
    enabled,
  });
}

export function useSavePostCommentSettings(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiSchemas['UpdateCommentSettingsDto']) => unwrap(api.PUT('/api/posts/{id}/comment-settings', { params: { path: { id } }, body })),
    onSuccess: (settings) => client.setQueryData(postCommentSettingsQueryKey(id), settings),
  });
}

/**
 * The author's controls over a post's comments: approve a held one (the post counts it), delete
 * any (a counted one leaves the count), pin one or unpin it. The comments are asked again after.
 */
export function usePostCommentModeration(id: string, store: PostStore) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: postCommentsQueryKey(id) });
  const path = (commentId: string) => ({ params: { path: { id, commentId } } });
  return {
    approve: useMutation({
      mutationFn: (commentId: string) => api.POST('/api/posts/{id}/comments/{commentId}/approve', path(commentId)),
      onSuccess: () => store.patchPost(id, (post) => ({ commentsCount: post.commentsCount + 1 })),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: ({ commentId }: { commentId: string; held: boolean }) => api.DELETE('/api/posts/{id}/comments/{commentId}', path(commentId)),
      onSuccess: (_answer, { held }) => {
        if (!held) store.patchPost(id, (post) => ({ commentsCount: Math.max(post.commentsCount - 1, 0) }));
      },
      onSettled: refresh,
    }),
    pin: useMutation({
      mutationFn: ({ commentId, pinned }: { commentId: string; pinned: boolean }) =>
        pinned ? api.PUT('/api/posts/{id}/comments/{commentId}/pin', path(commentId)) : api.DELETE('/api/posts/{id}/comments/{commentId}/pin', path(commentId)),
      onSettled: refresh,
    }),
  };
}
