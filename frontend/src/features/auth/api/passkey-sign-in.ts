import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { setAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import { getPasskeyAssertion } from '../lib/webauthn';
import { isDeletionPending } from './login';

/** Signs in with a passkey alone: the site's challenge, the browser's passkey prompt, the server's check. */
export async function signInWithPasskey() {
  const { challengeId, options } = await unwrap(api.POST('/api/auth/passkeys/sign-in-options'));
  const response = await getPasskeyAssertion(options);
  return unwrap(api.POST('/api/auth/passkeys/sign-in', { body: { challengeId, response: response as unknown as Record<string, never> } }));
}

export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: (answer) => {
      if (isDeletionPending(answer)) return;
      setAuthToken(answer.session.token);
      queryClient.setQueryData(ME_QUERY_KEY, answer.user);
    },
  });
}
