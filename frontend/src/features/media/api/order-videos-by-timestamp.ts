import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { isImage } from '../lib/media-kind';
import { sortVideos } from '../lib/video-order';
import { videosQueryKey } from './get-videos';
import type { TimestampOrder, Video } from './types';

/** Makes an order by upload or recording time permanent (images too); the answer is the videos in the new order. */
export function orderVideosByTimestamp(timelineId: string, orderType: TimestampOrder): Promise<Video[]> {
  return unwrap(api.POST('/api/timelines/{id}/videos/order-by-timestamp', { params: { path: { id: timelineId } }, body: { orderType } }));
}

export function useOrderVideosByTimestamp(timelineId: string) {
  const queryClient = useQueryClient();
  const key = videosQueryKey(timelineId);
  return useMutation({
    mutationFn: (orderType: TimestampOrder) => orderVideosByTimestamp(timelineId, orderType),
    onSuccess: (videos, orderType) => {
      const current = queryClient.getQueryData<Video[]>(key);
      if (!Array.isArray(videos)) {
        void queryClient.invalidateQueries({ queryKey: key });
      } else if (current?.some(isImage)) {
        // The answer lists the videos only: the images take the places the same order gives them.
        const fresh = new Map(videos.map((video) => [video.id, video]));
        queryClient.setQueryData<Video[]>(key, sortVideos(current, orderType).map((item, position) => ({ ...(fresh.get(item.id) ?? item), position })));
        void queryClient.invalidateQueries({ queryKey: key });
      } else {
        queryClient.setQueryData(key, videos);
      }
    },
  });
}
