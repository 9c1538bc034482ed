import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

/** One caption track of a video: its language and the signed WebVTT address a `<track>` loads. */
export type CaptionTrack = ApiSchemas['CaptionTrackDto'];

export const videoCaptionsQueryKey = (videoId: string) => ['media', 'captions', videoId] as const;

export function getVideoCaptions(videoId: string): Promise<CaptionTrack[]> {
  return unwrap(api.GET('/api/videos/{id}/captions', { params: { path: { id: videoId } } }));
}

export function getVideoCaptionsQueryOptions(videoId: string) {
  return queryOptions({ queryKey: videoCaptionsQueryKey(videoId), queryFn: () => getVideoCaptions(videoId), staleTime: 60_000 });
}

export function useVideoCaptions(videoId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getVideoCaptionsQueryOptions(videoId), enabled });
}
