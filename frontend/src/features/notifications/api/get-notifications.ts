import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequestWithHeaders, type ApiSchemas } from '../../../lib/api-client';

export type Notification = ApiSchemas['NotificationDto'];

export const NOTIFICATIONS_PAGE_SIZE = 20;

export interface NotificationPage {
  items: Notification[];
  nextCursor: string | null;
}

/** One page of the caller's notifications, grouped, newest activity first. */
export async function getNotifications(cursor: string | null): Promise<NotificationPage> {
  const query = new URLSearchParams({ limit: String(NOTIFICATIONS_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  const { data, headers } = await apiRequestWithHeaders<Notification[]>('GET', `/api/notifications?${query}`);
  return { items: data, nextCursor: headers.get('X-Next-Cursor') };
}

export function getNotificationsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: ['notifications', 'list'],
    queryFn: ({ pageParam }) => getNotifications(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Live messages and the poll say when it changed; opening the list always shows the latest.
    staleTime: 0,
  });
}

export function useNotifications(enabled = true) {
  return useInfiniteQuery({ ...getNotificationsQueryOptions(), enabled });
}
