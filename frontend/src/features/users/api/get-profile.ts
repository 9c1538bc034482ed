import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

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
    // A failure the router's prefetch got (a 404 for someone who does not exist) is shown, not
    // asked again as the page mounts; opening the page again asks again.
    retryOnMount: false,
  });
}

export function useProfile(id: string) {
  return useQuery(getProfileQueryOptions(id));
}
