import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type NotificationPreferences = ApiSchemas['PreferencesDto'];
export type NotificationType = keyof NotificationPreferences;
export type Channel = 'inApp' | 'push';

const TYPES: NotificationType[] = ['likes', 'comments', 'mentions', 'follows', 'collaboration', 'videos', 'exports'];

/** Every type with both switches; whatever the answer lacks is on, as the service's default is. */
export function completePreferences(answer: Partial<Record<NotificationType, Partial<Record<Channel, unknown>>>> | null | undefined): NotificationPreferences {
  const channel = (value: unknown) => (typeof value === 'boolean' ? value : true);
  return Object.fromEntries(TYPES.map((type) => [type, { inApp: channel(answer?.[type]?.inApp), push: channel(answer?.[type]?.push) }])) as NotificationPreferences;
}

export const PREFERENCES_QUERY_KEY = ['notifications', 'preferences'] as const;

export async function getPreferences(): Promise<NotificationPreferences> {
  return completePreferences(await unwrap(api.GET('/api/notifications/preferences')));
}

export function getPreferencesQueryOptions() {
  return queryOptions({ queryKey: PREFERENCES_QUERY_KEY, queryFn: getPreferences });
}

export function usePreferences() {
  return useQuery(getPreferencesQueryOptions());
}
