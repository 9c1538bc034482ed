import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type StaffRole = ApiSchemas['StaffRoleDto']['role'];

export const STAFF_ROLE_QUERY_KEY = ['moderation', 'role'] as const;

/** The signed-in person's staff role (GET /api/moderation/role); null for everyone else. */
export function getStaffRoleQueryOptions() {
  return queryOptions({
    queryKey: STAFF_ROLE_QUERY_KEY,
    queryFn: async (): Promise<StaffRole> => (await unwrap(api.GET('/api/moderation/role'))).role,
    staleTime: 60_000,
    retry: false,
  });
}

export function useStaffRole() {
  return useQuery(getStaffRoleQueryOptions());
}
