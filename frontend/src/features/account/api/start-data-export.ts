import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { DATA_EXPORT_QUERY_KEY, type DataExport, type DataExportState } from './get-data-export';

/** Starts an archive of everything the person keeps here (POST /api/account/data-exports); one a day. */
export function startDataExport(): Promise<DataExport> {
  return unwrap(api.POST('/api/account/data-exports'));
}

/** The new export shows at once (queued, 0 %); the status is then asked for until it is made. */
export function useStartDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startDataExport,
    onSuccess: (started) => queryClient.setQueryData<DataExportState>(DATA_EXPORT_QUERY_KEY, { export: started, nextExportAt: null }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: DATA_EXPORT_QUERY_KEY }),
  });
}
