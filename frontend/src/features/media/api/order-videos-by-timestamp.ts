import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { videosQueryKey } from './get-videos';
import type { TimestampOrder, Video } from './types';

/** Makes an order by upload or recording time permanent; the answer is the new list. */
export function orderVideosByTimestamp(timelineId: string, orderType: TimestampOrder): Promise<Video[]> {
  return apiRequest<Video[]>('POST', `/api/timelines/${encodeURIComponent(timelineId)}/videos/order-by-timestamp`, { orderType });
}

export function useOrderVideosByTimestamp(timelineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderType: TimestampOrder) => orderVideosByTimestamp(timelineId, orderType),
    onSuccess: (videos) => {
      if (Array.isArray(videos)) queryClient.setQueryData(videosQueryKey(timelineId), videos);
      else void queryClient.invalidateQueries({ queryKey: videosQueryKey(timelineId) });
    },
  });
}
