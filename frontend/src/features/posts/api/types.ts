// The post shapes are declared once, with the feed that carries them (hand-written until the
// OpenAPI document describes the post endpoints). Type-only: no code crosses the features.
import type { Post } from '../../feed/api/types';

export type { BookmarkStatus, LikeStatus, Post, PostComment, UserSummary } from '../../feed/api/types';

/**
 * Where the posts on screen are kept (the page's cached feed, for the home page). Post cards
 * change it optimistically and undo on failure.
 */
export interface PostStore {
  /** Changes a post; returns the function that undoes the change. */
  patchPost: (id: string, patch: (post: Post) => Partial<Post>) => () => void;
  removePost: (id: string) => void;
}
