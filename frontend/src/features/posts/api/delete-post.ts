import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { PostCallbacks, PostStore } from './types';

export async function deletePost(id: string): Promise<void> {
  await api.DELETE('/api/posts/{id}', { params: { path: { id } } });
}

export function useDeletePost(store: PostStore, callbacks: PostCallbacks<void> = {}) {
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_answer, id) => {
      store.removePost(id);
      callbacks.onSuccess?.();
    },
    onError: callbacks.onError,
  });
}
