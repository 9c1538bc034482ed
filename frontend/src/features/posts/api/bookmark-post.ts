import { useMutation } from '@tanstack/react-query';
import { setPostBookmarked } from '../../../lib/bookmarks';
import type { Post, PostStore } from './types';

export const isPostBookmarked = (post: Post) => post.isBookmarked || post.bookmarked;

/** The bookmark toggle: the post changes at once and goes back if the server refuses (only logged). */
export function useBookmarkPost(postId: string, store: PostStore) {
  return useMutation({
    mutationFn: (bookmarked: boolean) => setPostBookmarked(postId, bookmarked),
    onMutate: (bookmarked) => store.patchPost(postId, () => ({ bookmarked, isBookmarked: bookmarked })),
    onError: (_error, _bookmarked, undo) => undo?.(),
  });
}
