import { useMutation } from '@tanstack/react-query';
import { setTimelineBookmarked } from '../../../lib/bookmarks';
import { useFeedCache } from './feed-cache';
import type { FeedTimeline } from './types';

export const isTimelineBookmarked = (timeline: FeedTimeline) => timeline.isBookmarked || timeline.bookmarked;

/** A feed card's bookmark toggle: the cached card changes at once and goes back if the server refuses. */
export function useBookmarkTimeline(timelineId: string) {
  const cache = useFeedCache();
  return useMutation({
    mutationFn: (bookmarked: boolean) => setTimelineBookmarked(timelineId, bookmarked),
    onMutate: (bookmarked) => cache.patchTimeline(timelineId, () => ({ bookmarked, isBookmarked: bookmarked })),
    onError: (_error, _bookmarked, undo) => undo?.(),
  });
}
