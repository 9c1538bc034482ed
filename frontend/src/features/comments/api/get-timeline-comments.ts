import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type TimelineComment = ApiSchemas['TimelineCommentDto'];

export const timelineCommentsQueryKey = (timelineId: string) => ['comments', 'timeline', timelineId] as const;

/** The timeline's comments, newest first. */
export function getTimelineComments(timelineId: string): Promise<TimelineComment[]> {
  return unwrap(api.GET('/api/timelines/{id}/comments', { params: { path: { id: timelineId } } }));
}

export function getTimelineCommentsQueryOptions(timelineId: string) {
  return queryOptions({ queryKey: timelineCommentsQueryKey(timelineId), queryFn: () => getTimelineComments(timelineId) });
}

export function useTimelineComments(timelineId: string) {
  return useQuery(getTimelineCommentsQueryOptions(timelineId));
}
