import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Post, PostCallbacks, PostStore } from './types';

export function updatePost(id: string, content: string): Promise<Post> {
  return unwrap(api.PUT('/api/posts/{id}', { params: { path: { id } }, body: { content } }));
}

export function useUpdatePost(store: PostStore, callbacks: PostCallbacks<Post> = {}) {
  return useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) => updatePost(id, content),
    onSuccess: (post, { id }) => {
      store.patchPost(id, () => post);
      callbacks.onSuccess?.(post);
    },
    onError: callbacks.onError,
  });
}
