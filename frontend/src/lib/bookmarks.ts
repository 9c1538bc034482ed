import { api, unwrap, type ApiSchemas } from './api-client';

// Bookmarking a post or a timeline: the cards that toggle it (posts, the feed) and the Saved page
// that takes things out (collections) share these calls.

export type PostBookmarkStatus = ApiSchemas['PostBookmarkStatusDto'];
export type TimelineBookmarkStatus = ApiSchemas['TimelineBookmarkStatusDto'];

/** Bookmarks (POST) or un-bookmarks (DELETE) a post. */
export function setPostBookmarked(id: string, bookmarked: boolean): Promise<PostBookmarkStatus> {
  const params = { params: { path: { id } } };
  return unwrap(bookmarked ? api.POST('/api/posts/{id}/bookmark', params) : api.DELETE('/api/posts/{id}/bookmark', params));
}

/** Bookmarks (POST) or un-bookmarks (DELETE) a timeline. */
export function setTimelineBookmarked(id: string, bookmarked: boolean): Promise<TimelineBookmarkStatus> {
  const params = { params: { path: { id } } };
  return unwrap(bookmarked ? api.POST('/api/timelines/{id}/bookmark', params) : api.DELETE('/api/timelines/{id}/bookmark', params));
}
