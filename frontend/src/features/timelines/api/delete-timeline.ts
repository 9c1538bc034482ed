import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { MY_TIMELINES_QUERY_KEY } from './get-my-timelines';
import { timelineQueryKey } from './get-timeline';

export async function deleteTimeline(id: string): Promise<void> {
  await api.DELETE('/api/timelines/{id}', { params: { path: { id } } });
}

type Config = Omit<UseMutationOptions<void, Error, string>, 'mutationFn'>;

export function useDeleteTimeline(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteTimeline,
    onSuccess: (result, id, ...rest) => {
      // Stale, not removed: the page showing it is leaving and must not refetch it on the way out;
      // anyone opening it again asks the server (and learns it is gone).
      void queryClient.invalidateQueries({ queryKey: timelineQueryKey(id), exact: true, refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
      return config.onSuccess?.(result, id, ...rest);
    },
  });
}
