import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { videosQueryKey } from './get-videos';
import type { Video } from './types';

export type MissingAltText = ApiSchemas['MissingAltTextDto'];

export const missingAltTextQueryKey = (timelineId: string) => ['media', 'missing-alt-text', timelineId] as const;

/** The timeline's images and videos still without alt text or a description (owner and editors). */
export function getMissingAltText(timelineId: string): Promise<MissingAltText> {
  return unwrap(api.GET('/api/timelines/{id}/media/missing-alt-text', { params: { path: { id: timelineId } } }));
}

export function useMissingAltText(timelineId: string) {
  return useQuery(queryOptions({ queryKey: missingAltTextQueryKey(timelineId), queryFn: () => getMissingAltText(timelineId), staleTime: 10_000 }));
}

export function setAltText(mediaId: string, altText: string): Promise<Video> {
  return unwrap(api.PUT('/api/videos/{id}/alt-text', { params: { path: { id: mediaId } }, body: { altText } }));
}

/** "Add later": the server remembers, so the prompt is not shown again for this item. */
export async function deferAltText(mediaId: string): Promise<void> {
  await unwrap(api.POST('/api/videos/{id}/alt-text/later', { params: { path: { id: mediaId } } }));
}

/** The lists that show the item: of its timeline, or (timeline not known here) every timeline's. */
function useRefreshAltText(timelineId?: string) {
  const queryClient = useQueryClient();
  const videosKey = timelineId ? videosQueryKey(timelineId) : (['media', 'videos'] as const);
  return (changed?: Video) => {
    if (changed) {
      queryClient.setQueriesData<Video[]>({ queryKey: videosKey }, (videos) =>
        videos?.map((video) => (video.id === changed.id ? { ...video, altText: changed.altText, altTextDeferred: changed.altTextDeferred } : video)),
      );
    }
    void queryClient.invalidateQueries({ queryKey: videosKey });
    void queryClient.invalidateQueries({ queryKey: timelineId ? missingAltTextQueryKey(timelineId) : ['media', 'missing-alt-text'] });
  };
}

export function useSetAltText(timelineId?: string) {
  const refresh = useRefreshAltText(timelineId);
  return useMutation({ mutationFn: ({ mediaId, altText }: { mediaId: string; altText: string }) => setAltText(mediaId, altText), onSuccess: (video) => refresh(video) });
}

export function useDeferAltText(timelineId?: string) {
  const refresh = useRefreshAltText(timelineId);
  return useMutation({ mutationFn: (mediaId: string) => deferAltText(mediaId), onSuccess: () => refresh() });
}
