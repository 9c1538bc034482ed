import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Proof } from './disable-totp';
import { PASSKEYS_QUERY_KEY } from './get-passkeys';

export const removePasskey = ({ id, proof }: { id: string; proof: Proof }) => unwrap(api.POST('/api/auth/passkeys/{id}/remove', { params: { path: { id } }, body: { proof } }));

/** Removes one of one's passkeys, with the password or a passkey. */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removePasskey, onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }) });
}
