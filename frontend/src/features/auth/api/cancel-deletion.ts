import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { setAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';

export const cancelDeletion = (token: string) => unwrap(api.POST('/api/auth/account/deletion/cancel', { body: { token } }));

/** Cancels the account's deletion with the token the sign-in answered; the session starts. */
export function useCancelDeletion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelDeletion,
    onSuccess: ({ user, session }) => {
      setAuthToken(session.token);
      queryClient.setQueryData(ME_QUERY_KEY, user);
    },
  });
}
