import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { useFeedCache } from './feed-cache';
import type { FeedTimeline } from './types';

export type TimelineLikeStatus = ApiSchemas['TimelineLikeStatusDto'];

/** Likes (POST) or unlikes (DELETE) a timeline. */
export function setTimelineLiked(id: string, liked: boolean): Promise<TimelineLikeStatus> {
  const params = { params: { path: { id } } };
  return unwrap(liked ? api.POST('/api/timelines/{id}/like', params) : api.DELETE('/api/timelines/{id}/like', params));
}

export const isTimelineLiked = (timeline: FeedTimeline) => timeline.isLiked || timeline.liked;

/**
 * A feed card's like toggle: the cached card changes at once and goes back if the server refuses
 * (the failure is only logged, spec 000 section 8); the server's count wins after.
 */
export function useLikeTimeline(timelineId: string) {
  const cache = useFeedCache();
  return useMutation({
    mutationFn: (liked: boolean) => setTimelineLiked(timelineId, liked),
    onMutate: (liked) => {
      const delta = liked ? 1 : -1;
      return cache.patchTimeline(timelineId, (current) => ({
        liked,
        isLiked: liked,
        likesCount: Math.max(0, current.likesCount + delta),
      }));
    },
    onError: (_error, _liked, undo) => undo?.(),
    onSuccess: (status, liked) => {
      const count = typeof status.likesCount === 'number' ? status.likesCount : undefined;
      cache.patchTimeline(timelineId, (current) => ({
        liked: status.isLiked ?? status.liked ?? liked,
        isLiked: status.isLiked ?? status.liked ?? liked,
        likesCount: count ?? current.likesCount,
      }));
    },
  });
}
