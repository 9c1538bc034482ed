import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { ExportStatus } from './types';

export const exportQueryKey = (exportId: string) => ['exports', exportId] as const;

export function getExport(exportId: string): Promise<ExportStatus> {
  return unwrap(api.GET('/api/exports/{id}', { params: { path: { id: exportId } } }));
}

/** While an export is being made, how often its status is asked again, ms. */
export const EXPORT_POLL_MS = 3000;

/** Where an export stands, with its signed download URL once completed (GET /api/exports/{id}). */
export function getExportQueryOptions(exportId: string) {
  return queryOptions({
    queryKey: exportQueryKey(exportId),
    queryFn: () => getExport(exportId),
    // The download URL is signed for a while: ask again rather than keep an old one.
    staleTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.data && (query.state.data.status === 'queued' || query.state.data.status === 'processing') ? EXPORT_POLL_MS : false),
  });
}

export function useExport(exportId: string) {
  return useQuery(getExportQueryOptions(exportId));
}
