import { useInfiniteQuery } from '@tanstack/react-query';
import { api, nextCursorOf, type ApiSchemas } from '../../../lib/api-client';

export type Bookmark = ApiSchemas['BookmarkDto'];

export const BOOKMARKS_PAGE_SIZE = 20;
export const BOOKMARKS_QUERY_KEY = ['bookmarks'] as const;

export interface BookmarksPage {
  items: Bookmark[];
  nextCursor: string | null;
}

export async function getBookmarksPage(cursor?: string): Promise<BookmarksPage> {
  const { data, response } = await api.GET('/api/bookmarks', {
    params: { query: cursor ? { limit: BOOKMARKS_PAGE_SIZE, cursor } : { limit: BOOKMARKS_PAGE_SIZE } },
  });
  return { items: data ?? [], nextCursor: nextCursorOf(response, cursor) };
}

export function useBookmarks() {
  return useInfiniteQuery({
    queryKey: BOOKMARKS_QUERY_KEY,
    queryFn: ({ pageParam }) => getBookmarksPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
