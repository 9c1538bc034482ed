import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { getUnreadCountQueryOptions } from './get-unread-count';
import { getNotificationsQueryOptions, type Notification } from './get-notifications';

export const markNotificationRead = (id: string) => apiRequest<Notification>('POST', `/api/notifications/${encodeURIComponent(id)}/read`);
export const markAllNotificationsRead = () => apiRequest<{ count: number }>('POST', '/api/notifications/read-all');

/** Marks one entry read; the badge and the list follow. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: getUnreadCountQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: getNotificationsQueryOptions().queryKey });
    },
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      queryClient.setQueryData(getUnreadCountQueryOptions().queryKey, 0);
      void queryClient.invalidateQueries({ queryKey: getNotificationsQueryOptions().queryKey });
    },
  });
}
