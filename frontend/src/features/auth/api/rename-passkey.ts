import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { PASSKEYS_QUERY_KEY } from './get-passkeys';

export const renamePasskey = ({ id, name }: { id: string; name: string }) => unwrap(api.PATCH('/api/auth/passkeys/{id}', { params: { path: { id } }, body: { name } }));

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: renamePasskey, onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }) });
}
