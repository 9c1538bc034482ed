import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Post } from './types';

export const postQueryKey = (id: string) => ['posts', 'one', id] as const;

export function getPost(id: string): Promise<Post> {
  return unwrap(api.GET('/api/posts/{id}', { params: { path: { id } } }));
}

/** One post, as its permalink page (/post/{id}) shows it. */
export const getPostQueryOptions = (id: string) =>
  queryOptions({
    queryKey: postQueryKey(id),
    queryFn: () => getPost(id),
    enabled: Boolean(id),
  });

export function usePost(id: string) {
  return useQuery(getPostQueryOptions(id));
}
