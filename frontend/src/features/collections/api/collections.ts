import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type Collection = ApiSchemas['CollectionDto'];
export type CollectionTimeline = ApiSchemas['CollectionTimelineDto'];
export type TimelineCollection = ApiSchemas['TimelineCollectionDto'];
export type CollectionInput = ApiSchemas['CreateCollectionDto'];

/** Collections per page of 'My Collections'. */
export const COLLECTIONS_PAGE_SIZE = 30;
/** The server's largest page, for lists read whole (a timeline's collections in the sheet). */
const MAX_PAGE_SIZE = 100;
/** A bound on pages followed, so a server that never ends a list cannot loop us forever. */
const MAX_PAGES = 20;

export const COLLECTIONS_QUERY_KEY = ['collections'] as const;
export const myCollectionsQueryKey = [...COLLECTIONS_QUERY_KEY, 'mine'] as const;
export const collectionQueryKey = (id: string) => [...COLLECTIONS_QUERY_KEY, 'detail', id] as const;
export const collectionTimelinesQueryKey = (id: string) => [...COLLECTIONS_QUERY_KEY, 'detail', id, 'timelines'] as const;
export const timelineCollectionsQueryKey = (timelineId: string) => [...COLLECTIONS_QUERY_KEY, 'for-timeline', timelineId] as const;

export interface CollectionsPage {
  items: Collection[];
  nextCursor: string | null;
}

const nextCursorOf = (headers: Headers, cursor: string | undefined) => {
  const next = headers.get('X-Next-Cursor');
  return next && next !== cursor ? next : null;
};

export async function getMyCollectionsPage(cursor?: string): Promise<CollectionsPage> {
  const { data, response } = await api.GET('/api/collections', {
    params: { query: cursor ? { limit: COLLECTIONS_PAGE_SIZE, cursor } : { limit: COLLECTIONS_PAGE_SIZE } },
  });
  return { items: data ?? [], nextCursor: nextCursorOf(response.headers, cursor) };
}

export function getMyCollectionsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: myCollectionsQueryKey,
    queryFn: ({ pageParam }) => getMyCollectionsPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useMyCollections() {
  return useInfiniteQuery(getMyCollectionsQueryOptions());
}

export function getCollectionQueryOptions(id: string) {
  return queryOptions({
    queryKey: collectionQueryKey(id),
    queryFn: () => unwrap(api.GET('/api/collections/{id}', { params: { path: { id } } })),
  });
}

export function useCollection(id: string) {
  return useQuery(getCollectionQueryOptions(id));
}

export function useCollectionTimelines(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: collectionTimelinesQueryKey(id),
    queryFn: async () => {
      const list = await unwrap(api.GET('/api/collections/{id}/timelines', { params: { path: { id } } }));
      return Array.isArray(list) ? list : [];
    },
    enabled,
  });
}

/** Every collection of the caller, each saying whether it holds the timeline (all pages). */
export async function getTimelineCollections(timelineId: string): Promise<TimelineCollection[]> {
  const collections: TimelineCollection[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data, response } = await api.GET('/api/timelines/{id}/collections', {
      params: { path: { id: timelineId }, query: cursor ? { limit: MAX_PAGE_SIZE, cursor } : { limit: MAX_PAGE_SIZE } },
    });
    collections.push(...(data ?? []));
    const next = nextCursorOf(response.headers, cursor);
    if (!next) break;
    cursor = next;
  }
  return collections;
}

export function useTimelineCollections(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: timelineCollectionsQueryKey(timelineId),
    queryFn: () => getTimelineCollections(timelineId),
    enabled,
  });
}

/** Trimmed values as the server stores them: a blank description is none. */
export function collectionBody(values: { name: string; description: string; isPublic: boolean }): CollectionInput {
  const description = values.description.trim();
  return { name: values.name.trim(), description: description || null, isPublic: values.isPublic };
}

export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CollectionInput) => unwrap(api.POST('/api/collections', { body })),
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionQueryKey(collection.id), collection);
      void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
    },
  });
}

export function useUpdateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CollectionInput }) => unwrap(api.PUT('/api/collections/{id}', { params: { path: { id } }, body })),
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionQueryKey(collection.id), collection);
      queryClient.setQueryData<InfiniteData<CollectionsPage>>(myCollectionsQueryKey, (data) =>
        data
          ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((item) => (item.id === collection.id ? collection : item)) })) }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: [...COLLECTIONS_QUERY_KEY, 'for-timeline'] });
    },
  });
}

export function useDeleteCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/collections/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      queryClient.setQueryData<InfiniteData<CollectionsPage>>(myCollectionsQueryKey, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id) })) } : data,
      );
      // Not the page still showing it (it is leaving): removing its query would fetch it again.
      queryClient.removeQueries({ queryKey: collectionQueryKey(id), type: 'inactive' });
      void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
      void queryClient.invalidateQueries({ queryKey: [...COLLECTIONS_QUERY_KEY, 'for-timeline'] });
    },
  });
}

export function addTimelineToCollection(collectionId: string, timelineId: string) {
  return unwrap(api.POST('/api/collections/{id}/timelines', { params: { path: { id: collectionId } }, body: { timelineId } }));
}

export function removeTimelineFromCollection(collectionId: string, timelineId: string) {
  return unwrap(api.DELETE('/api/collections/{id}/timelines/{timelineId}', { params: { path: { id: collectionId, timelineId } } }));
}

/** Lists that show a collection's contents or counts, stale after a change to it. */
function invalidateCollection(queryClient: ReturnType<typeof useQueryClient>, collectionId: string) {
  void queryClient.invalidateQueries({ queryKey: collectionQueryKey(collectionId) });
  void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
}

/**
 * Adds a timeline to a collection or takes it out, from the Save sheet: the checkbox changes at
 * once and goes back (with the error) when the server refuses.
 */
export function useToggleTimelineInCollection(timelineId: string) {
  const queryClient = useQueryClient();
  const key = timelineCollectionsQueryKey(timelineId);
  const setContains = (collectionId: string, contains: boolean) =>
    queryClient.setQueryData<TimelineCollection[]>(key, (list) =>
      list?.map((item) =>
        item.id === collectionId && item.contains !== contains
          ? { ...item, contains, timelinesCount: Math.max(0, item.timelinesCount + (contains ? 1 : -1)) }
          : item,
      ),
    );
  return useMutation({
    mutationFn: ({ collectionId, contains }: { collectionId: string; contains: boolean }) =>
      contains ? addTimelineToCollection(collectionId, timelineId) : removeTimelineFromCollection(collectionId, timelineId),
    onMutate: async ({ collectionId, contains }) => {
      await queryClient.cancelQueries({ queryKey: key });
      setContains(collectionId, contains);
    },
    onError: (_, { collectionId, contains }) => setContains(collectionId, !contains),
    onSettled: (_, __, { collectionId }) => invalidateCollection(queryClient, collectionId),
  });
}

/** Creates a collection from the Save sheet and puts the timeline in it. */
export function useCreateCollectionWithTimeline(timelineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CollectionInput) => {
      const collection = await unwrap(api.POST('/api/collections', { body }));
      await addTimelineToCollection(collection.id, timelineId);
      return collection;
    },
    onSuccess: (collection) => {
      queryClient.setQueryData<TimelineCollection[]>(timelineCollectionsQueryKey(timelineId), (list) => [
        { ...collection, timelinesCount: collection.timelinesCount + 1, contains: true },
        ...(list ?? []).filter((item) => item.id !== collection.id),
      ]);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: myCollectionsQueryKey });
      void queryClient.invalidateQueries({ queryKey: timelineCollectionsQueryKey(timelineId) });
    },
  });
}

export function useRemoveFromCollection(collectionId: string) {
  const queryClient = useQueryClient();
  const key = collectionTimelinesQueryKey(collectionId);
  return useMutation({
    mutationFn: (timelineId: string) => removeTimelineFromCollection(collectionId, timelineId),
    onMutate: async (timelineId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CollectionTimeline[]>(key);
      queryClient.setQueryData<CollectionTimeline[]>(key, (list) => list?.filter((item) => item.id !== timelineId));
      return { previous };
    },
    onError: (_, __, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: (_, __, timelineId) => {
      invalidateCollection(queryClient, collectionId);
      void queryClient.invalidateQueries({ queryKey: timelineCollectionsQueryKey(timelineId) });
    },
  });
}

/** Saves a new order at once; the list shows it before the answer and goes back on failure. */
export function useReorderCollection(collectionId: string) {
  const queryClient = useQueryClient();
  const key = collectionTimelinesQueryKey(collectionId);
  return useMutation({
    mutationFn: (timelines: CollectionTimeline[]) =>
      unwrap(api.PUT('/api/collections/{id}/timelines/order', { params: { path: { id: collectionId } }, body: { timelineIds: timelines.map((item) => item.id) } })),
    onMutate: async (timelines) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CollectionTimeline[]>(key);
      queryClient.setQueryData(key, timelines);
      return { previous };
    },
    onSuccess: (list) => {
      if (Array.isArray(list)) queryClient.setQueryData(key, list);
    },
    onError: (_, __, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

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
  return { items: data ?? [], nextCursor: nextCursorOf(response.headers, cursor) };
}

export function useBookmarks() {
  return useInfiniteQuery({
    queryKey: BOOKMARKS_QUERY_KEY,
    queryFn: ({ pageParam }) => getBookmarksPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Takes a post or timeline out of Saved; it leaves the list at once and comes back on failure. */
export function useRemoveBookmark() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, id }: Pick<Bookmark, 'type' | 'id'>) =>
      type === 'post'
        ? unwrap(api.DELETE('/api/posts/{id}/bookmark', { params: { path: { id } } }))
        : unwrap(api.DELETE('/api/timelines/{id}/bookmark', { params: { path: { id } } })),
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
