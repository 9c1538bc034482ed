import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type VideoComment = ApiSchemas['VideoCommentDto'];

export const videoCommentsKey = (videoId: string) => ['videos', videoId, 'comments'] as const;

export function getVideoComments(videoId: string): Promise<VideoComment[]> {
  return unwrap(api.GET('/api/videos/{id}/comments', { params: { path: { id: videoId }, query: { limit: 100 } } }));
}

export function useVideoComments(videoId: string, enabled: boolean) {
  return useQuery({ queryKey: videoCommentsKey(videoId), queryFn: () => getVideoComments(videoId), enabled });
}
