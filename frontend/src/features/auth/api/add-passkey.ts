import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { createPasskey } from '../lib/webauthn';
import { PASSKEYS_QUERY_KEY } from './get-passkeys';

/** Adds a passkey: the site's options, the browser's prompt to create one, the server's check, a name. */
export async function addPasskey(name: string) {
  const { challengeId, options } = await unwrap(api.POST('/api/auth/passkeys/registration-options'));
  const response = await createPasskey(options);
  return unwrap(api.POST('/api/auth/passkeys', { body: { challengeId, name, response: response as unknown as Record<string, never> } }));
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addPasskey, onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }) });
}
