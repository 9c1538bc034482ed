import { useQuery } from '@tanstack/react-query';
import { api, nextCursorOf } from '../../../lib/api-client';
import { COLLECTIONS_QUERY_KEY, type TimelineCollection } from './types';

/** The server's largest page, for lists read whole (a timeline's collections in the sheet). */
const MAX_PAGE_SIZE = 100;
/** A bound on pages followed, so a server that never ends a list cannot loop us forever. */
const MAX_PAGES = 20;

/** Every cached "collections of a timeline" list starts with this key. */
export const TIMELINE_COLLECTIONS_QUERY_KEY = [...COLLECTIONS_QUERY_KEY, 'for-timeline'] as const;
export const timelineCollectionsQueryKey = (timelineId: string) => [...TIMELINE_COLLECTIONS_QUERY_KEY, timelineId] as const;

/** Every collection of the caller, each saying whether it holds the timeline (all pages). */
export async function getTimelineCollections(timelineId: string): Promise<TimelineCollection[]> {
  const collections: TimelineCollection[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data, response } = await api.GET('/api/timelines/{id}/collections', {
      params: { path: { id: timelineId }, query: cursor ? { limit: MAX_PAGE_SIZE, cursor } : { limit: MAX_PAGE_SIZE } },
    });
    collections.push(...(data ?? []));
    const next = nextCursorOf(response, cursor);
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
