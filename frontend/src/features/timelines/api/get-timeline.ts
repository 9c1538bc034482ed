import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
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

/**
 * Counts a comment the signed-in person just added. The server keeps the count from an event a
 * moment after the comment is stored, so asking for the timeline at once could still answer the
 * old count: the cached timeline counts it itself, and the server's figure comes with the next
 * regular refresh.
 */
export function countAddedComment(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<Timeline>(timelineQueryKey(id), (timeline) => (timeline ? { ...timeline, commentsCount: timeline.commentsCount + 1 } : timeline));
}
