import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { completePreferences, PREFERENCES_QUERY_KEY, type Channel, type NotificationType } from './get-preferences';

/** Changes one switch; the answer (every switch) replaces what the screen shows. */
export function useUpdatePreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, channel, on }: { type: NotificationType; channel: Channel; on: boolean }) =>
      unwrap(api.PUT('/api/notifications/preferences', { body: { [type]: { [channel]: on } } })),
    onSuccess: (preferences) => queryClient.setQueryData(PREFERENCES_QUERY_KEY, completePreferences(preferences)),
  });
}
