import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ApiSchemas } from '../../../lib/api-client';

export type NotificationPreferences = ApiSchemas['PreferencesDto'];
export type NotificationType = keyof NotificationPreferences;
export type Channel = 'inApp' | 'push';

const TYPES: NotificationType[] = ['likes', 'comments', 'mentions', 'follows', 'collaboration', 'videos', 'exports'];

/** Every type with both switches; whatever the answer lacks is on, as the service's default is. */
function complete(answer: Partial<Record<NotificationType, Partial<Record<Channel, unknown>>>> | null | undefined): NotificationPreferences {
  const channel = (value: unknown) => (typeof value === 'boolean' ? value : true);
  return Object.fromEntries(TYPES.map((type) => [type, { inApp: channel(answer?.[type]?.inApp), push: channel(answer?.[type]?.push) }])) as NotificationPreferences;
}

export function getPreferencesQueryOptions() {
  return queryOptions({
    queryKey: ['notifications', 'preferences'],
    queryFn: async () => complete(await apiRequest<Partial<NotificationPreferences>>('GET', '/api/notifications/preferences')),
  });
}

export function usePreferences() {
  return useQuery(getPreferencesQueryOptions());
}

/** Changes one switch; the answer (every switch) replaces what the screen shows. */
export function useUpdatePreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, channel, on }: { type: NotificationType; channel: Channel; on: boolean }) =>
      apiRequest<NotificationPreferences>('PUT', '/api/notifications/preferences', { [type]: { [channel]: on } }),
    onSuccess: (preferences) => queryClient.setQueryData(getPreferencesQueryOptions().queryKey, complete(preferences)),
  });
}
