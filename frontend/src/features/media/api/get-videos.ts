import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { prefetchedByRoute } from '../../../lib/react-query';
import type { Video } from './types';

export const videosQueryKey = (timelineId: string) => ['media', 'videos', timelineId] as const;

/**
 * A timeline's videos and images (`mediaType` tells them apart), by position: what the studio
 * manages and the player shows. Without `include=images` the API lists the videos only.
 */
export function getVideos(timelineId: string): Promise<Video[]> {
  return unwrap(api.GET('/api/timelines/{id}/videos', { params: { path: { id: timelineId }, query: { include: 'images' } } }));
}

export function getVideosQueryOptions(timelineId: string) {
  return queryOptions({
    queryKey: videosQueryKey(timelineId),
    queryFn: () => getVideos(timelineId),
    // Spec 001 section 9: the timeline's videos are fresh for 10 s.
    staleTime: 10_000,
    select: (videos) => [...videos].sort((a, b) => a.position - b.position),
    ...prefetchedByRoute,
  });
}

export function useVideos(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getVideosQueryOptions(timelineId), enabled });
}
