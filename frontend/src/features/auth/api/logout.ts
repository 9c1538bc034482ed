import { type Query, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clearAuthToken, getAuthToken } from '../../../lib/auth-token';
import { getRealtimeClient } from '../../../lib/realtime';
import { ME_QUERY_KEY } from '../../../lib/current-user';

/**
 * Ends the session on the server when a token is held, and always clears the token locally
 * (spec 000, section 4): a failed call is logged, never a reason to stay signed in. The token
 * leaves the page before the call goes, with it as its only user: nothing else on the page asks
 * the API with a token the server is revoking (each would be refused with a 401).
 */
export async function logout(): Promise<void> {
  const token = getAuthToken();
  clearAuthToken();
  if (!token) return;
  try {
    await api.POST('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
  } catch (error) {
    console.error('Logout request failed', error);
  }
}

const isSession = (queryKey: readonly unknown[]) => queryKey[0] === ME_QUERY_KEY[0];

/**
 * Forgets every query of the person who left (spec 000: nothing of theirs stays for the next),
 * each once no screen watches it any more: the signed-in shell renders the change of user
 * deferred, and a query removed while still watched is asked for again at once, and refused.
 */
function forgetWhenUnwatched(queryClient: QueryClient): void {
  const cache = queryClient.getQueryCache();
  const waiting = new Set<Query>();
  const forget = (query: Query) => {
    if (isSession(query.queryKey)) return;
    if (query.getObserversCount() > 0) waiting.add(query);
    else {
      waiting.delete(query);
      cache.remove(query);
    }
  };
  for (const query of cache.getAll()) forget(query);
  if (waiting.size === 0) return;
  const stop = () => {
    clearTimeout(timer);
    unsubscribe();
  };
  const unsubscribe = cache.subscribe((event) => {
    if (event.type !== 'observerRemoved' || !waiting.has(event.query)) return;
    forget(event.query);
    if (waiting.size === 0) stop();
  });
  // A screen that outlives the shell keeps what it shows; nothing waits for it for ever.
  const timer = setTimeout(stop, 60_000);
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onMutate: async () => {
      // Signed out on this page first: the live socket closes from this side (the server would
      // close it as the session ends, which the client reports), nothing of the person's is
      // asked again, and their screens give way to the sign-in screen.
      getRealtimeClient().close();
      await queryClient.cancelQueries();
      queryClient.setQueryData(ME_QUERY_KEY, null);
      forgetWhenUnwatched(queryClient);
    },
    onSettled: () => {
      queryClient.setQueryData(ME_QUERY_KEY, null);
      forgetWhenUnwatched(queryClient);
    },
  });
}
