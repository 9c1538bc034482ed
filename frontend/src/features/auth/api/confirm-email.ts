import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** Follows the confirmation link's token. */
export function confirmEmail(token: string) {
  return unwrap(api.POST('/api/auth/email/confirm', { body: { token } }));
}

export const useConfirmEmail = () => useMutation({ mutationFn: confirmEmail });
