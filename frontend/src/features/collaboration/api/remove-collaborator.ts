import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { collaboratorsQueryKey } from './get-collaborators';

export async function removeCollaborator(timelineId: string, userId: string): Promise<void> {
  await api.DELETE('/api/timelines/{id}/collaborators/{userId}', { params: { path: { id: timelineId, userId } } });
}

type Variables = { timelineId: string; userId: string };
type Config = Omit<UseMutationOptions<void, Error, Variables>, 'mutationFn'>;

export function useRemoveCollaborator(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ timelineId, userId }: Variables) => removeCollaborator(timelineId, userId),
    onSuccess: (result, variables, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: collaboratorsQueryKey(variables.timelineId) });
      return config.onSuccess?.(result, variables, ...rest);
    },
  });
}
