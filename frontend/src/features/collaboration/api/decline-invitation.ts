import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export async function declineInvitation(token: string): Promise<void> {
  await api.POST('/api/invitations/{token}/decline', { params: { path: { token } } });
}

type Config = Omit<UseMutationOptions<void, Error, string>, 'mutationFn'>;

export function useDeclineInvitation(config: Config = {}) {
  return useMutation({ ...config, mutationFn: declineInvitation });
}
