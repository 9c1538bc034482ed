import type { Post } from '../api/types';

/**
 * Where a post can be read: its author's profile (the app has no page for a single post).
 */
export function postLink(origin: string, post: Pick<Post, 'userId'>): string {
  return `${origin}/profile/${encodeURIComponent(post.userId)}`;
}
