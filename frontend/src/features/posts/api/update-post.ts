import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Post, PostCallbacks, PostStore } from './types';

/** The text, and the author's sensitive mark when given (absent: unchanged). */
export function updatePost(id: string, content: string, sensitive?: boolean): Promise<Post> {
  return unwrap(api.PUT('/api/posts/{id}', { params: { path: { id } }, body: { content, ...(sensitive === undefined ? {} : { sensitive }) } }));
}

export function useUpdatePost(store: PostStore, callbacks: PostCallbacks<Post> = {}) {
  return useMutation({
    mutationFn: ({ id, content, sensitive }: { id: string; content: string; sensitive?: boolean }) => updatePost(id, content, sensitive),
    onSuccess: (post, { id }) => {
      store.patchPost(id, () => post);
      callbacks.onSuccess?.(post);
    },
    onError: callbacks.onError,
  });
}
