import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clearAuthToken, getAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from './get-me';

/**
 * Ends the session on the server when a token is held, then always clears the token locally
 * (spec 000, section 4): a failed call is logged, never a reason to stay signed in.
 */
export async function logout(): Promise<void> {
  try {
    if (getAuthToken()) await api.POST('/api/auth/logout');
  } catch (error) {
    console.error('Logout request failed', error);
  } finally {
    clearAuthToken();
  }
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      queryClient.setQueryData(ME_QUERY_KEY, null);
      // Everything else cached belonged to the person who just left.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== ME_QUERY_KEY[0] });
    },
  });
}
