import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { userQueryKey } from './get-profile';

export type FollowStatus = ApiSchemas['FollowStatusDto'];

export const followStatusQueryKey = (id: string) => [...userQueryKey(id), 'follow-status'] as const;

export function getFollowStatus(id: string): Promise<FollowStatus> {
  return unwrap(api.GET('/api/users/{id}/following', { params: { path: { id } } }));
}

/**
 * Whether the caller follows the person, with the person's follower and following counts as the
 * social service has them at this moment: exact at once after a follow, where the profile's copy
 * follows a moment later.
 */
export function getFollowStatusQueryOptions(id: string) {
  return queryOptions({
    queryKey: followStatusQueryKey(id),
    queryFn: () => getFollowStatus(id),
  });
}

export function useFollowStatus(id: string) {
  return useQuery(getFollowStatusQueryOptions(id));
}
