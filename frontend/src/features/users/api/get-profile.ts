import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { prefetchedByRoute } from '../../../lib/react-query';

export type Profile = ApiSchemas['ProfileDto'];

/** Everything cached about one person starts with this key. */
export const userQueryKey = (id: string) => ['users', id] as const;
export const profileQueryKey = (id: string) => [...userQueryKey(id), 'profile'] as const;

export function getProfile(id: string): Promise<Profile> {
  return unwrap(api.GET('/api/users/{id}/profile', { params: { path: { id } } }));
}

export function getProfileQueryOptions(id: string) {
  return queryOptions({
    queryKey: profileQueryKey(id),
    queryFn: () => getProfile(id),
    ...prefetchedByRoute,
  });
}

export function useProfile(id: string) {
  return useQuery(getProfileQueryOptions(id));
}
