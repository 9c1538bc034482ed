import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiSchemas } from '../../../lib/api-client';
import { timelineAnalyticsQueryKey } from './get-timeline-analytics';

/** How the timeline was shared (the server's list of channels). */
export type ShareChannel = NonNullable<ApiSchemas['RecordShareDto']['channel']>;

export async function recordShare(id: string, channel: ShareChannel): Promise<void> {
  await api.POST('/api/timelines/{id}/shares', { params: { path: { id } }, body: { channel } });
}

/** Counts a share in the timeline's analytics. A failure is only logged: the link was copied. */
export function useRecordShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, channel }: { id: string; channel: ShareChannel }) => recordShare(id, channel),
    onSuccess: (_result, { id }) => void queryClient.invalidateQueries({ queryKey: timelineAnalyticsQueryKey(id) }),
  });
}
