import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type Profile = ApiSchemas['ProfileDto'];

export function getProfile(id: string): Promise<Profile> {
  return unwrap(api.GET('/api/users/{id}/profile', { params: { path: { id } } }));
}

export function getProfileQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['users', id, 'profile'],
    queryFn: () => getProfile(id),
  });
}

export function useProfile(id: string) {
  return useQuery(getProfileQueryOptions(id));
}
