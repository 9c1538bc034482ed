import { isPostBookmarked, useBookmarkPost } from '../api/bookmark-post';
import { isPostLiked, useLikePost } from '../api/like-post';
import type { Post, PostStore } from '../api/types';

/** Like and bookmark: the post changes at once and goes back if the server refuses (only logged). */
export function usePostToggles(post: Post, store: PostStore) {
  const like = useLikePost(post.id, store);
  const bookmark = useBookmarkPost(post.id, store);
  return {
    liked: isPostLiked(post),
    bookmarked: isPostBookmarked(post),
    toggleLike: () => like.mutate(!isPostLiked(post)),
    toggleBookmark: () => bookmark.mutate(!isPostBookmarked(post)),
  };
}
