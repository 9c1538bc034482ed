import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { AUTH_TOKEN_KEY } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';

/** Signing in or out in another tab changes the stored token; follow it here. */
export function useSessionSync(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_TOKEN_KEY || event.key === null) {
        void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);
}
