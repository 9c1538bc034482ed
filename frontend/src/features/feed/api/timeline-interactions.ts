import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { useFeedCache } from './feed-cache';
import type { BookmarkStatus, FeedTimeline, LikeStatus } from './types';

const timelinePath = (id: string) => `/api/timelines/${encodeURIComponent(id)}`;

/** Likes (POST) or unlikes (DELETE) a timeline. */
export function setTimelineLiked(id: string, liked: boolean): Promise<LikeStatus> {
  return apiRequest<LikeStatus>(liked ? 'POST' : 'DELETE', `${timelinePath(id)}/like`);
}

export function setTimelineBookmarked(id: string, bookmarked: boolean): Promise<BookmarkStatus> {
  return apiRequest<BookmarkStatus>(bookmarked ? 'POST' : 'DELETE', `${timelinePath(id)}/bookmark`);
}

const isLiked = (timeline: FeedTimeline) => timeline.isLiked || timeline.liked;
const isBookmarked = (timeline: FeedTimeline) => timeline.isBookmarked || timeline.bookmarked;

/**
 * Like and bookmark toggles for a feed card: the cached card changes at once and goes back if the
 * server refuses (the failure is only logged, spec 000 section 8); the server's count wins after.
 */
export function useTimelineToggles(timeline: FeedTimeline) {
  const cache = useFeedCache();

  const like = useMutation({
    mutationFn: (liked: boolean) => setTimelineLiked(timeline.id, liked),
    onMutate: (liked) => {
      const delta = liked ? 1 : -1;
      return cache.patchTimeline(timeline.id, (current) => ({
        liked,
        isLiked: liked,
        likesCount: Math.max(0, current.likesCount + delta),
      }));
    },
    onError: (_error, _liked, undo) => undo?.(),
    onSuccess: (status, liked) => {
      const count = typeof status.likesCount === 'number' ? status.likesCount : undefined;
      cache.patchTimeline(timeline.id, (current) => ({
        liked: status.isLiked ?? status.liked ?? liked,
        isLiked: status.isLiked ?? status.liked ?? liked,
        likesCount: count ?? current.likesCount,
      }));
    },
  });

  const bookmark = useMutation({
    mutationFn: (bookmarked: boolean) => setTimelineBookmarked(timeline.id, bookmarked),
    onMutate: (bookmarked) => cache.patchTimeline(timeline.id, () => ({ bookmarked, isBookmarked: bookmarked })),
    onError: (_error, _bookmarked, undo) => undo?.(),
  });

  return {
    liked: isLiked(timeline),
    bookmarked: isBookmarked(timeline),
    toggleLike: () => like.mutate(!isLiked(timeline)),
    toggleBookmark: () => bookmark.mutate(!isBookmarked(timeline)),
  };
}
