import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../../lib/api-client';
import type { MediaItem } from './types';

export const timelineMediaQueryKey = (timelineId: string) => ['media', 'items', timelineId] as const;

/**
 * A timeline's videos and images. A 401 or 403 means the timeline is private to this viewer:
 * nothing is shown, and that is not an error (spec 000, sections 6 and 8).
 */
export async function getTimelineMedia(timelineId: string): Promise<MediaItem[]> {
  try {
    return await unwrap(api.GET('/api/timelines/{id}/media', { params: { path: { id: timelineId } } }));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return [];
    throw error;
  }
}

export function getTimelineMediaQueryOptions(timelineId: string) {
  return queryOptions({ queryKey: timelineMediaQueryKey(timelineId), queryFn: () => getTimelineMedia(timelineId) });
}

export function useTimelineMedia(timelineId: string) {
  return useQuery(getTimelineMediaQueryOptions(timelineId));
}
