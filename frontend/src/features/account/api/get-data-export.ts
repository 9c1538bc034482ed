import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type DataExport = ApiSchemas['DataExportDto'];
export type DataExportState = ApiSchemas['DataExportStateDto'];

export const DATA_EXPORT_QUERY_KEY = ['account', 'data-export'] as const;

/** While an export is being made, its progress is asked for this often. */
export const DATA_EXPORT_POLL_MS = 1_500;

const running = (state: DataExportState | undefined) => state?.export?.status === 'queued' || state?.export?.status === 'processing';

/** The person's newest data export and when a new one may start (GET /api/account/data-exports); polled while one is being made. */
export function getDataExportQueryOptions() {
  return queryOptions({
    queryKey: DATA_EXPORT_QUERY_KEY,
    queryFn: () => unwrap(api.GET('/api/account/data-exports')),
    refetchInterval: (query) => (running(query.state.data) ? DATA_EXPORT_POLL_MS : false),
  });
}

export function useDataExport() {
  return useQuery(getDataExportQueryOptions());
}
