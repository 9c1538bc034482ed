import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Post, PostCallbacks } from './types';

/** A new post: its text, and whether its author marks it sensitive. */
export type NewPost = { content: string; sensitive?: boolean };

export function createPost(input: string | NewPost): Promise<Post> {
  const body = typeof input === 'string' ? { content: input } : input;
  return unwrap(api.POST('/api/posts', { body }));
}

export function useCreatePost(callbacks: PostCallbacks<Post> = {}) {
  return useMutation({ mutationFn: createPost, ...callbacks });
}
