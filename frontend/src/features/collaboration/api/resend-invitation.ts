import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { collaboratorsQueryKey } from './get-collaborators';
import { invitationsQueryKey } from './get-invitations';

export type ResendResult = ApiSchemas['InviteResultDto'];

export function resendInvitation(invitationId: string): Promise<ResendResult> {
  return unwrap(api.POST('/api/invitations/{id}/resend', { params: { path: { id: invitationId } } }));
}

type Variables = { timelineId: string; invitationId: string };
type Config = Omit<UseMutationOptions<ResendResult, Error, Variables>, 'mutationFn'>;

/** Sending again renews the expiry; an address that now has an account may join at once. */
export function useResendInvitation(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ invitationId }: Variables) => resendInvitation(invitationId),
    onSuccess: (result, variables, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: invitationsQueryKey(variables.timelineId) });
      if (result.userExists) void queryClient.invalidateQueries({ queryKey: collaboratorsQueryKey(variables.timelineId) });
      return config.onSuccess?.(result, variables, ...rest);
    },
  });
}
