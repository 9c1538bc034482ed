import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type ModerationNotice = ApiSchemas['ModerationNoticeDto'];

export const MODERATION_NOTICES_QUERY_KEY = ['moderation', 'notices'] as const;

/** What moderators did about the signed-in person's content or account (GET /api/moderation-notices). */
export function getModerationNoticesQueryOptions() {
  return queryOptions({ queryKey: MODERATION_NOTICES_QUERY_KEY, queryFn: () => unwrap(api.GET('/api/moderation-notices')) });
}

export function useModerationNotices() {
  return useQuery(getModerationNoticesQueryOptions());
}
