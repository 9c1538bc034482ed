import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { prefetchedByRoute, shouldRetry } from '../../../lib/react-query';

export type Timeline = ApiSchemas['TimelineDto'];
export type TimelineVisibility = Timeline['visibility'];
export type TimelineStatus = Timeline['status'];
export type TimelineRole = NonNullable<Timeline['role']>;

export const timelineQueryKey = (id: string) => ['timelines', 'detail', id] as const;

export function getTimeline(id: string): Promise<Timeline> {
  return unwrap(api.GET('/api/timelines/{id}', { params: { path: { id } } }));
}

export function getTimelineQueryOptions(id: string) {
  return queryOptions({
    queryKey: timelineQueryKey(id),
    queryFn: () => getTimeline(id),
    // 'Timeline not found' is an answer, not a failure: asking again changes nothing.
    retry: (failureCount, error) => !(error instanceof ApiError && error.status === 404) && shouldRetry(failureCount, error),
    ...prefetchedByRoute,
  });
}

export function useTimeline(id: string) {
  return useQuery(getTimelineQueryOptions(id));
}
