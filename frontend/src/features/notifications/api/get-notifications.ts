import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, nextCursorOf, type ApiSchemas } from '../../../lib/api-client';

export type Notification = ApiSchemas['NotificationDto'];

export const NOTIFICATIONS_PAGE_SIZE = 20;

export interface NotificationPage {
  items: Notification[];
  nextCursor: string | null;
}

/** One page of the caller's notifications, grouped, newest activity first. */
export async function getNotifications(cursor: string | null): Promise<NotificationPage> {
  const { data, response } = await api.GET('/api/notifications', {
    params: { query: cursor ? { limit: NOTIFICATIONS_PAGE_SIZE, cursor } : { limit: NOTIFICATIONS_PAGE_SIZE } },
  });
  return { items: data ?? [], nextCursor: nextCursorOf(response, cursor) };
}

export const NOTIFICATIONS_QUERY_KEY = ['notifications', 'list'] as const;

export function getNotificationsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: NOTIFICATIONS_QUERY_KEY,
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
