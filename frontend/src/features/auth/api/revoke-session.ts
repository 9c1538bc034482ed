import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { SESSIONS_QUERY_KEY } from './get-sessions';

export async function revokeSession(id: string): Promise<void> {
  await api.DELETE('/api/auth/sessions/{id}', { params: { path: { id } } });
}

/** Signs out one session; the list is asked again. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
