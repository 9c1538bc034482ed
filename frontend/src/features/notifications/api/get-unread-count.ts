import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const UNREAD_COUNT_POLL_MS = 30_000;

/**
 * The unread notification count. Any failure counts as 0 (spec 000, section 7); a malformed
 * answer does too, rather than showing a number nobody sent.
 */
export async function getUnreadCount(): Promise<number> {
  try {
    const answer = await apiRequest<{ count?: unknown }>('GET', '/api/notifications/unread-count');
    const count = answer.count;
    return typeof count === 'number' && Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  } catch (error) {
    console.error('Unread notification count failed', error);
    return 0;
  }
}

export function getUnreadCountQueryOptions() {
  return queryOptions({
    queryKey: ['notifications', 'unread-count'],
    queryFn: getUnreadCount,
    refetchInterval: UNREAD_COUNT_POLL_MS,
    retry: false,
    staleTime: 0,
  });
}

export function useUnreadCount() {
  return useQuery(getUnreadCountQueryOptions());
}
