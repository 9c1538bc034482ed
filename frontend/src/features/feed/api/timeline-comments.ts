import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { useFeedCache } from './feed-cache';
import type { FeedComment } from './types';

export const feedTimelineCommentsQueryKey = (id: string) => ['feed', 'timeline-comments', id] as const;

const commentsPath = (id: string) => `/api/timelines/${encodeURIComponent(id)}/comments`;

export function getFeedTimelineComments(id: string): Promise<FeedComment[]> {
  return apiRequest<FeedComment[]>('GET', commentsPath(id));
}

/** The comments of a feed card, asked for when its comment list opens. */
export function useFeedTimelineComments(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: feedTimelineCommentsQueryKey(id),
    queryFn: () => getFeedTimelineComments(id),
    enabled,
  });
}

/** Adds a comment (spec 000 sends `{content}` only) and counts it on the card. */
export function useAddFeedTimelineComment(id: string) {
  const queryClient = useQueryClient();
  const cache = useFeedCache();
  return useMutation({
    mutationFn: (content: string) => apiRequest<FeedComment>('POST', commentsPath(id), { content }),
    onSuccess: () => {
      cache.patchTimeline(id, (timeline) => ({ commentsCount: timeline.commentsCount + 1 }));
      void queryClient.invalidateQueries({ queryKey: feedTimelineCommentsQueryKey(id) });
    },
  });
}
