import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type StorageUsage = ApiSchemas['StorageUsageDto'];

export const STORAGE_USAGE_QUERY_KEY = ['media', 'storage'] as const;

/** The signed-in person's storage: used, reserved by uploads in progress, quota, left (GET /api/media/storage). */
export function getStorageUsageQueryOptions() {
  return queryOptions({
    queryKey: STORAGE_USAGE_QUERY_KEY,
    queryFn: () => unwrap(api.GET('/api/media/storage')),
    staleTime: 30_000,
  });
}

export function useStorageUsage() {
  return useQuery(getStorageUsageQueryOptions());
}
