import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { FEED_QUERY_KEY } from './get-feed';
import type { FeedItem, FeedPage, FeedTimeline, Post } from './types';

type FeedData = InfiniteData<FeedPage, string | undefined>;

/** Cached feed pages; anything else (an entry still loading, or not a feed) is left as it is. */
const isFeedData = (data: unknown): data is FeedData => !!data && Array.isArray((data as Partial<FeedData>).pages);

/** Rewrites every cached page of every feed tab with `change` (items it returns null for are dropped). */
function rewriteItems(queryClient: QueryClient, change: (item: FeedItem) => FeedItem | null): void {
  queryClient.setQueriesData<FeedData>({ queryKey: FEED_QUERY_KEY }, (data) => {
    if (!isFeedData(data)) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        items: page.items.flatMap((item) => {
          const changed = change(item);
          return changed ? [changed] : [];
        }),
      })),
    };
  });
}

/** Puts back what `rewriteItems` changed; the snapshot is taken before an optimistic change. */
function snapshot(queryClient: QueryClient): () => void {
  const saved = queryClient.getQueriesData<FeedData>({ queryKey: FEED_QUERY_KEY });
  return () => {
    for (const [key, data] of saved) queryClient.setQueryData(key, data);
  };
}

export interface FeedCache {
  /** Changes a cached post; returns the function that undoes the change. */
  patchPost: (id: string, patch: (post: Post) => Partial<Post>) => () => void;
  /** Changes a cached timeline card; returns the function that undoes the change. */
  patchTimeline: (id: string, patch: (timeline: FeedTimeline) => Partial<FeedTimeline>) => () => void;
  /** Drops an item (deleted, reported) from every cached page. */
  remove: (type: FeedItem['type'], id: string) => void;
  /** Shows a new post at the top of every cached feed tab. */
  prependPost: (post: Post) => void;
}

export function createFeedCache(queryClient: QueryClient): FeedCache {
  return {
    patchPost: (id, patch) => {
      const undo = snapshot(queryClient);
      rewriteItems(queryClient, (item) =>
        item.type === 'post' && item.post?.id === id ? { ...item, post: { ...item.post, ...patch(item.post) } } : item,
      );
      return undo;
    },
    patchTimeline: (id, patch) => {
      const undo = snapshot(queryClient);
      rewriteItems(queryClient, (item) =>
        item.type === 'timeline' && item.timeline?.id === id
          ? { ...item, timeline: { ...item.timeline, ...patch(item.timeline) } }
          : item,
      );
      return undo;
    },
    remove: (type, id) => {
      rewriteItems(queryClient, (item) => (item.type === type && (item[type]?.id ?? item.id) === id ? null : item));
    },
    prependPost: (post) => {
      queryClient.setQueriesData<FeedData>({ queryKey: FEED_QUERY_KEY }, (data) => {
        if (!isFeedData(data) || data.pages.length === 0) return data;
        const [first, ...rest] = data.pages;
        const item: FeedItem = { type: 'post', id: post.id, post };
        const items = [item, ...first!.items.filter((existing) => !(existing.type === 'post' && existing.post?.id === post.id))];
        return { ...data, pages: [{ ...first!, items }, ...rest] };
      });
    },
  };
}

export function useFeedCache(): FeedCache {
  const queryClient = useQueryClient();
  return useMemo(() => createFeedCache(queryClient), [queryClient]);
}
