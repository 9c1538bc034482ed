import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type ViewingPreferences = ApiSchemas['ViewingPreferencesDto'];

export const VIEWING_PREFERENCES_KEY = ['viewing', 'preferences'] as const;

export function getViewingPreferences(): Promise<ViewingPreferences> {
  return unwrap(api.GET('/api/auth/preferences'));
}

export function getViewingPreferencesQueryOptions() {
  return queryOptions({ queryKey: VIEWING_PREFERENCES_KEY, queryFn: getViewingPreferences, staleTime: 60_000 });
}

/** The signed-in person's viewing preferences (kept on the server: every device shows the same). */
export function useViewingPreferences({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getViewingPreferencesQueryOptions(), enabled });
}

export function updateViewingPreferences(changes: Partial<ViewingPreferences>): Promise<ViewingPreferences> {
  return unwrap(api.PUT('/api/auth/preferences', { body: changes }));
}

export function useUpdateViewingPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateViewingPreferences,
    onSuccess: (saved) => queryClient.setQueryData(VIEWING_PREFERENCES_KEY, saved),
  });
}
