import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type ModerationQueue = ApiSchemas['QueueDto'];
export type QueueItem = ApiSchemas['QueueItemDto'];
export type QueueAppeal = ApiSchemas['QueueAppealDto'];

export const MODERATION_QUEUE_QUERY_KEY = ['moderation', 'queue'] as const;

/** Reported items grouped by item, and pending appeals (GET /api/moderation/queue). */
export function getModerationQueueQueryOptions() {
  return queryOptions({ queryKey: MODERATION_QUEUE_QUERY_KEY, queryFn: () => unwrap(api.GET('/api/moderation/queue')), retry: false });
}

export function useModerationQueue(enabled: boolean) {
  return useQuery({ ...getModerationQueueQueryOptions(), enabled });
}
