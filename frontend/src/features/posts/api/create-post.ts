import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Post, PostCallbacks } from './types';

export function createPost(content: string): Promise<Post> {
  return unwrap(api.POST('/api/posts', { body: { content } }));
}

export function useCreatePost(callbacks: PostCallbacks<Post> = {}) {
  return useMutation({ mutationFn: createPost, ...callbacks });
}
