import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type TimelineAnalytics = ApiSchemas['AnalyticsDto'];

export const timelineAnalyticsQueryKey = (id: string) => ['timelines', 'analytics', id] as const;

export function getTimelineAnalytics(id: string): Promise<TimelineAnalytics> {
  return unwrap(api.GET('/api/timelines/{id}/analytics', { params: { path: { id } } }));
}

export function getTimelineAnalyticsQueryOptions(id: string) {
  return queryOptions({ queryKey: timelineAnalyticsQueryKey(id), queryFn: () => getTimelineAnalytics(id) });
}

export function useTimelineAnalytics(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getTimelineAnalyticsQueryOptions(id), enabled });
}
