import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type SessionInfo = ApiSchemas['SessionInfoDto'];

export const SESSIONS_QUERY_KEY = ['auth', 'sessions'] as const;

export function getSessions(): Promise<SessionInfo[]> {
  return unwrap(api.GET('/api/auth/sessions'));
}

export const getSessionsQueryOptions = () => queryOptions({ queryKey: SESSIONS_QUERY_KEY, queryFn: getSessions });

/** One's own sessions, this device first. */
export const useSessions = () => useQuery(getSessionsQueryOptions());
