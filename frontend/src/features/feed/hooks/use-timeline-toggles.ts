import { isTimelineBookmarked, useBookmarkTimeline } from '../api/bookmark-timeline';
import { isTimelineLiked, useLikeTimeline } from '../api/like-timeline';
import type { FeedTimeline } from '../api/types';

/** Like and bookmark toggles for a feed card (each changes the cached card at once). */
export function useTimelineToggles(timeline: FeedTimeline) {
  const like = useLikeTimeline(timeline.id);
  const bookmark = useBookmarkTimeline(timeline.id);
  return {
    liked: isTimelineLiked(timeline),
    bookmarked: isTimelineBookmarked(timeline),
    toggleLike: () => like.mutate(!isTimelineLiked(timeline)),
    toggleBookmark: () => bookmark.mutate(!isTimelineBookmarked(timeline)),
  };
}
