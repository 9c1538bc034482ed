import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { NOTIFICATIONS_QUERY_KEY } from './get-notifications';
import { UNREAD_COUNT_QUERY_KEY } from './get-unread-count';

/** The answer is the unread count after it: 0. */
export function markAllNotificationsRead(): Promise<ApiSchemas['UnreadCountDto']> {
  return unwrap(api.POST('/api/notifications/read-all'));
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      queryClient.setQueryData(UNREAD_COUNT_QUERY_KEY, 0);
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
    },
  });
}
