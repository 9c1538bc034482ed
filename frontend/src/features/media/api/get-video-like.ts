import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type VideoLikeStatus = ApiSchemas['VideoLikeStatusDto'];

export const videoLikeKey = (videoId: string) => ['videos', videoId, 'liked'] as const;

export function getVideoLike(videoId: string): Promise<VideoLikeStatus> {
  return unwrap(api.GET('/api/videos/{id}/liked', { params: { path: { id: videoId } } }));
}

export function getVideoLikeQueryOptions(videoId: string) {
  return queryOptions({ queryKey: videoLikeKey(videoId), queryFn: () => getVideoLike(videoId) });
}

export function useVideoLike(videoId: string) {
  return useQuery(getVideoLikeQueryOptions(videoId));
}
