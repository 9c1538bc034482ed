import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { collaboratorsQueryKey } from './get-collaborators';

/** Leaves a timeline one collaborates on (not its owner). */
export async function leaveTimeline(timelineId: string): Promise<void> {
  await api.POST('/api/timelines/{id}/leave', { params: { path: { id: timelineId } } });
}

type Variables = { timelineId: string };
type Config = Omit<UseMutationOptions<void, Error, Variables>, 'mutationFn'>;

/** The team is forgotten here; the timeline itself (now out of reach) is the page's to forget, from `onSuccess`. */
export function useLeaveTimeline(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ timelineId }: Variables) => leaveTimeline(timelineId),
    onSuccess: (result, variables, ...rest) => {
      queryClient.removeQueries({ queryKey: collaboratorsQueryKey(variables.timelineId) });
      return config.onSuccess?.(result, variables, ...rest);
    },
  });
}
