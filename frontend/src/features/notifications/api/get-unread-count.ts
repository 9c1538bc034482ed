import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { getAuthToken } from '../../../lib/auth-token';

export const UNREAD_COUNT_POLL_MS = 30_000;

/**
 * The unread notification count. Any failure counts as 0 (spec 000, section 7); a malformed
 * answer does too, rather than showing a number nobody sent.
 */
export async function getUnreadCount(): Promise<number> {
  // Signed out (the bell can render once more as the shell goes): nothing to ask, nothing unread.
  if (!getAuthToken()) return 0;
  try {
    // Checked at run time as well: a malformed answer must not show a number nobody sent.
    const count: unknown = (await unwrap(api.GET('/api/notifications/unread-count'))).count;
    return typeof count === 'number' && Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  } catch (error) {
    console.error('Unread notification count failed', error);
    return 0;
  }
}

export const UNREAD_COUNT_QUERY_KEY = ['notifications', 'unread-count'] as const;

export function getUnreadCountQueryOptions() {
  return queryOptions({
    queryKey: UNREAD_COUNT_QUERY_KEY,
    queryFn: getUnreadCount,
    refetchInterval: UNREAD_COUNT_POLL_MS,
    retry: false,
    staleTime: 0,
  });
}

export function useUnreadCount() {
  return useQuery(getUnreadCountQueryOptions());
}
