import type { ApiSchemas } from '../../../lib/api-client';

export type Post = ApiSchemas['PostDto'];
export type PostComment = ApiSchemas['PostCommentDto'];
export type UserSummary = ApiSchemas['UserSummaryDto'];

/**
 * Where the posts on screen are kept (the page's cached feed, for the home page). Post cards
 * change it optimistically and undo on failure.
 */
export interface PostStore {
  /** Changes a post; returns the function that undoes the change. */
  patchPost: (id: string, patch: (post: Post) => Partial<Post>) => () => void;
  removePost: (id: string) => void;
}

/** What a post's mutation hooks call back with. */
export type PostCallbacks<T> = { onSuccess?: (value: T) => void; onError?: (error: Error) => void };
