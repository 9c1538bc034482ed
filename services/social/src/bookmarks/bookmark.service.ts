import { decodeCursor, encodeCursor, type Page, type SignedInCaller } from '@timeliner/platform';
import type { VisibleTimelines } from '../access/visible-timelines.js';
import { DEFAULT_PAGE_SIZE, type PageQueryDto } from '../pagination/page-queries.js';
import type { PostCards } from '../posts/post-card.js';
import { mapPost } from '../posts/post.dto.js';
import type { BookmarkDto } from './bookmark.dto.js';
import type { BookmarkRepository } from './bookmark.repository.js';

/**
 * The caller's saved items (spec 001's Saved screen): bookmarked posts and timelines, newest
 * bookmark first. A timeline the caller may no longer see is left out (the page may then be
 * shorter than the limit; the cursor still moves past it).
 */
export class BookmarkService {
  constructor(
    private readonly bookmarks: BookmarkRepository,
    private readonly posts: PostCards,
    private readonly timelines: VisibleTimelines,
  ) {}

  async list(caller: SignedInCaller, query: PageQueryDto): Promise<Page<BookmarkDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const userId = caller.userId.toLowerCase();
    const rows = await this.bookmarks.list(userId, limit + 1, after);
    const page = rows.slice(0, limit);
    const [posts, timelines] = await Promise.all([
      this.posts.byIds(page.filter((r) => r.type === 'post').map((r) => r.id), userId),
      this.timelines.summaries(page.filter((r) => r.type === 'timeline').map((r) => r.id), userId),
    ]);
    const postById = new Map(posts.map((p) => [p.id, p]));
    const items = page.flatMap((row): BookmarkDto[] => {
      const base = { type: row.type, id: row.id, bookmarkedAt: row.bookmarkedAt.toISOString() };
      if (row.type === 'post') {
        const post = postById.get(row.id);
        return post ? [{ ...base, post: mapPost(post) }] : [];
      }
      const timeline = timelines.get(row.id);
      return timeline ? [{ ...base, timeline }] : [];
    });
    const last = page.at(-1);
    return { items, ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }
}
