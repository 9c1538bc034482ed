import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { collaboratorsQueryKey } from './get-collaborators';
import { invitationsQueryKey } from './get-invitations';

export type InviteInput = ApiSchemas['InviteDto'];
export type InviteResult = ApiSchemas['InviteResultDto'];
export type InviteRole = NonNullable<InviteInput['role']>;

export function inviteCollaborator(timelineId: string, body: InviteInput): Promise<InviteResult> {
  return unwrap(api.POST('/api/timelines/{id}/invite', { params: { path: { id: timelineId } }, body }));
}

type Variables = { timelineId: string; invite: InviteInput };
type Config = Omit<UseMutationOptions<InviteResult, Error, Variables>, 'mutationFn'>;

/** An existing account joins the collaborators at once; anyone else gets a pending invitation. */
export function useInviteCollaborator(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ timelineId, invite }: Variables) => inviteCollaborator(timelineId, invite),
    onSuccess: (result, variables, ...rest) => {
      const queryKey = result.userExists ? collaboratorsQueryKey(variables.timelineId) : invitationsQueryKey(variables.timelineId);
      void queryClient.invalidateQueries({ queryKey });
      return config.onSuccess?.(result, variables, ...rest);
    },
  });
}
