import { useQueryClient } from '@tanstack/react-query';
import { useUserRealtime } from '../../../lib/realtime';
import { getNotificationsQueryOptions } from '../api/get-notifications';
import { getUnreadCountQueryOptions } from '../api/get-unread-count';

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Keeps the badge and the list current from `/ws` (`user:<id>`): a new or grown notification, or a
 * count changed elsewhere (read on another device). The 30 s poll stays as the fallback.
 */
export function useLiveNotifications(userId: string | null | undefined): void {
  const queryClient = useQueryClient();
  useUserRealtime(userId, (message) => {
    if ((message.type !== 'notification' && message.type !== 'notification_count') || !isCount(message.unreadCount)) return;
    queryClient.setQueryData(getUnreadCountQueryOptions().queryKey, Math.floor(message.unreadCount));
    void queryClient.invalidateQueries({ queryKey: getNotificationsQueryOptions().queryKey });
  });
}
