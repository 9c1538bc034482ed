import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invitationsQueryKey } from './get-invitations';

export async function cancelInvitation(invitationId: string): Promise<void> {
  await api.DELETE('/api/invitations/{id}', { params: { path: { id: invitationId } } });
}

type Variables = { timelineId: string; invitationId: string };
type Config = Omit<UseMutationOptions<void, Error, Variables>, 'mutationFn'>;

export function useCancelInvitation(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ invitationId }: Variables) => cancelInvitation(invitationId),
    onSuccess: (result, variables, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: invitationsQueryKey(variables.timelineId) });
      return config.onSuccess?.(result, variables, ...rest);
    },
  });
}
