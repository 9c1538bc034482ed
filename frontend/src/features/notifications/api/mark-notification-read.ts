import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { NOTIFICATIONS_QUERY_KEY, type Notification } from './get-notifications';
import { UNREAD_COUNT_QUERY_KEY } from './get-unread-count';

export function markNotificationRead(id: string): Promise<Notification> {
  return unwrap(api.POST('/api/notifications/{id}/read', { params: { path: { id } } }));
}

/** Marks one entry read; the badge and the list follow. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
    },
  });
}
