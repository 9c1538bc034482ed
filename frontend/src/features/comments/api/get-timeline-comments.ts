import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type TimelineComment = ApiSchemas['TimelineCommentDto'];

/**
 * A timeline's comments, wherever they are shown (the studio, a feed card): one cache entry per
 * timeline, so a comment added in one place shows in the other.
 */
export const timelineCommentsQueryKey = (timelineId: string) => ['comments', 'timeline', timelineId] as const;

/** The timeline's comments, newest first. */
export function getTimelineComments(timelineId: string): Promise<TimelineComment[]> {
  return unwrap(api.GET('/api/timelines/{id}/comments', { params: { path: { id: timelineId } } }));
}

export function getTimelineCommentsQueryOptions(timelineId: string) {
  return queryOptions({ queryKey: timelineCommentsQueryKey(timelineId), queryFn: () => getTimelineComments(timelineId) });
}

/** `enabled: false` until the list is shown (a feed card asks when its comments open). */
export function useTimelineComments(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getTimelineCommentsQueryOptions(timelineId), enabled });
}
