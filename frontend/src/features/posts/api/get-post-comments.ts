import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { PostComment } from './types';

export const postCommentsQueryKey = (id: string) => ['posts', 'comments', id] as const;

/** The post's first page of comments, oldest first. */
export function getPostComments(id: string): Promise<PostComment[]> {
  return unwrap(api.GET('/api/posts/{id}/comments', { params: { path: { id } } }));
}

export function getPostCommentsQueryOptions(id: string) {
  return queryOptions({ queryKey: postCommentsQueryKey(id), queryFn: () => getPostComments(id) });
}

export function usePostComments(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...getPostCommentsQueryOptions(id), enabled });
}
