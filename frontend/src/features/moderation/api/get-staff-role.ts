import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type StaffRole = ApiSchemas['StaffRoleDto']['role'];

export const STAFF_ROLE_QUERY_KEY = ['moderation', 'role'] as const;

/** The signed-in person's staff role (GET /api/moderation/role); null for everyone else (the server answers 403). */
export function getStaffRoleQueryOptions() {
  return queryOptions({
    queryKey: STAFF_ROLE_QUERY_KEY,
    queryFn: async (): Promise<StaffRole | null> => {
      try {
        return (await unwrap(api.GET('/api/moderation/role'))).role;
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
}

export function useStaffRole() {
  return useQuery(getStaffRoleQueryOptions());
}
