import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { muteStatusQueryKey } from './safety-keys';

export type MuteStatus = ApiSchemas['MuteStatusDto'];

export function getMuteStatus(id: string): Promise<MuteStatus> {
  return unwrap(api.GET('/api/users/{id}/mute', { params: { path: { id } } }));
}

export function getMuteStatusQueryOptions(id: string) {
  return queryOptions({ queryKey: muteStatusQueryKey(id), queryFn: () => getMuteStatus(id) });
}

/** Whether the caller muted the person (asked only when their menu opens). */
export function useMuteStatus(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getMuteStatusQueryOptions(id), enabled });
}
