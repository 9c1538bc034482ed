import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { setPostBookmarked, setTimelineBookmarked } from '../../../lib/bookmarks';
import { BOOKMARKS_QUERY_KEY, type Bookmark, type BookmarksPage } from './get-bookmarks';

/** Takes a post or timeline out of Saved; it leaves the list at once and comes back on failure. */
export function useRemoveBookmark() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, id }: Pick<Bookmark, 'type' | 'id'>) =>
      type === 'post' ? setPostBookmarked(id, false) : setTimelineBookmarked(id, false),
    onMutate: async ({ type, id }) => {
      await queryClient.cancelQueries({ queryKey: BOOKMARKS_QUERY_KEY });
      const previous = queryClient.getQueryData<InfiniteData<BookmarksPage>>(BOOKMARKS_QUERY_KEY);
      queryClient.setQueryData<InfiniteData<BookmarksPage>>(BOOKMARKS_QUERY_KEY, (data) =>
        data
          ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => !(item.type === type && item.id === id)) })) }
          : data,
      );
      return { previous };
    },
    onError: (_, __, context) => {
      if (context?.previous) queryClient.setQueryData(BOOKMARKS_QUERY_KEY, context.previous);
    },
  });
}
