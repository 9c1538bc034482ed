import type { Post } from '../api/types';

/** Where a post can be read on its own: its permalink page, /post/{id} (signed in, as every page but the invitation). */
export function postLink(origin: string, post: Pick<Post, 'id'>): string {
  return `${origin}/post/${encodeURIComponent(post.id)}`;
}
