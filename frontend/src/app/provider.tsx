import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ErrorBoundary } from '../components/errors/error-boundary';
import { toast, Toaster } from '../components/ui/toast';
import { ME_QUERY_KEY } from '../lib/current-user';
import { ApiError } from '../lib/api-client';
import { watchConnection } from '../lib/connection';
import { createQueryClient } from '../lib/react-query';
import { setRealtimeFailureHandler } from '../lib/realtime';

// Spec 001 section 8; the client reports a failure at most once per page.
setRealtimeFailureHandler((reason) =>
  toast({
    title: reason === 'construct' ? 'Failed to establish WebSocket connection' : 'WebSocket connection failed',
    description: 'Live upload and processing updates will resume once the connection is back.',
    variant: 'destructive',
  }),
);

/**
 * A 401 on any other query means the session ended on the server (expired or revoked): asking
 * for the current user again lets the auth flow drop the token and show the sign-in screen.
 */
export function createAppQueryClient(): QueryClient {
  const queryClient: QueryClient = createQueryClient({
    onQueryError: (error, queryKey) => {
      connection.onQueryError(error);
      if (error instanceof ApiError && error.status === 401 && queryKey[0] !== ME_QUERY_KEY[0]) {
        void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      }
    },
  });
  // Offline or unreachable, the app gets back by itself (lib/connection.ts).
  const connection = watchConnection(queryClient);
  // A session that ends without a sign-out (rejected token) leaves nothing of its data behind for
  // whoever signs in next, in memory or in the offline copy.
  let signedIn = false;
  queryClient.getQueryCache().subscribe((event) => {
    const { query } = event;
    if ((event.type !== 'added' && event.type !== 'updated') || query.queryKey[0] !== ME_QUERY_KEY[0] || query.queryKey[1] !== ME_QUERY_KEY[1]) return;
    const user = query.state.data;
    if (user) signedIn = true;
    else if (user === null && signedIn) {
      signedIn = false;
      queueMicrotask(() => queryClient.removeQueries({ predicate: (other) => other.queryKey[0] !== ME_QUERY_KEY[0] }));
    }
  });
  return queryClient;
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createAppQueryClient());
  return (
    <ErrorBoundary>
      <QueryClientProvider client={client}>
        {children}
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
