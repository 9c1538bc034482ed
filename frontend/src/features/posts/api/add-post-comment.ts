import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { postCommentsQueryKey } from './get-post-comments';
import type { PostComment, PostStore } from './types';

export function addPostComment(id: string, content: string): Promise<PostComment> {
  return unwrap(api.POST('/api/posts/{id}/comments', { params: { path: { id } }, body: { content } }));
}

/** Adds a comment; the post counts it and its comments are asked again. */
export function useAddPostComment(id: string, store: PostStore) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => addPostComment(id, content),
    onSuccess: (comment) => {
      // A comment held for the author's approval is counted once approved.
      if (!comment.held) store.patchPost(id, (post) => ({ commentsCount: post.commentsCount + 1 }));
      void queryClient.invalidateQueries({ queryKey: postCommentsQueryKey(id) });
    },
  });
}
