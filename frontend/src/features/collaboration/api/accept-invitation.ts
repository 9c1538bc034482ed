import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type AcceptInvitationResult = ApiSchemas['AcceptInvitationResultDto'];

export function acceptInvitation(token: string): Promise<AcceptInvitationResult> {
  return unwrap(api.POST('/api/invitations/{token}/accept', { params: { path: { token } } }));
}

type Config = Omit<UseMutationOptions<AcceptInvitationResult, Error, string>, 'mutationFn'>;

/** The caller's timeline list gains the timeline: the page invalidates it from `onSuccess`. */
export function useAcceptInvitation(config: Config = {}) {
  return useMutation({ ...config, mutationFn: acceptInvitation });
}
