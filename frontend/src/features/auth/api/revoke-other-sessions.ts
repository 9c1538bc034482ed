import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { SESSIONS_QUERY_KEY } from './get-sessions';

export function revokeOtherSessions() {
  return unwrap(api.DELETE('/api/auth/sessions'));
}

/** Signs out every other session; this one stays. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
