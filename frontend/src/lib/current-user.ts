import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from './api-client';
import { clearAuthToken, getAuthToken } from './auth-token';
import { shouldRetry } from './react-query';

export type User = ApiSchemas['UserDto'];

export const ME_QUERY_KEY = ['auth', 'me'] as const;

/** The server refused the token (as opposed to being unreachable or failing). */
function isRejection(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

/**
 * The signed-in user, or null when there is no session. A token the server rejects is removed
 * (spec 000, section 4). When the server cannot be reached the token is kept and the error
 * surfaces, so a person offline or during an outage is not signed out.
 */
export async function getMe(): Promise<User | null> {
  if (!getAuthToken()) return null;
  try {
    return await unwrap(api.GET('/api/auth/me'));
  } catch (error) {
    if (!isRejection(error)) throw error;
    clearAuthToken();
    return null;
  }
}

export function getMeQueryOptions() {
  return queryOptions({
    queryKey: ME_QUERY_KEY,
    queryFn: getMe,
    // Offline, retrying only delays the "can't reach" screen by the whole backoff.
    retry: (failureCount, error) => navigator.onLine !== false && shouldRetry(failureCount, error),
    // Without a stored token there is nothing to ask: the answer is known at once.
    initialData: () => (getAuthToken() ? undefined : null),
  });
}

export function useUser() {
  return useQuery(getMeQueryOptions());
}
