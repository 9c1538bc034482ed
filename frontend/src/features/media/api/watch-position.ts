import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

/** Where the signed-in person stopped in a timeline: the item and the second in it. */
export type SavedWatchPosition = ApiSchemas['WatchPositionDto'];
export type WatchPlace = ApiSchemas['SaveWatchPositionDto'];

export const watchPositionQueryKey = (timelineId: string) => ['watch-position', timelineId] as const;

export async function getWatchPosition(timelineId: string): Promise<SavedWatchPosition | null> {
  const answer = await unwrap(api.GET('/api/timelines/{id}/watch-position', { params: { path: { id: timelineId } } }));
  return answer.position ?? null;
}

/**
 * Read each time the timeline is opened (the place may have moved on another device since), and
 * not kept once the player is left.
 */
export function getWatchPositionQueryOptions(timelineId: string) {
  return queryOptions({ queryKey: watchPositionQueryKey(timelineId), queryFn: () => getWatchPosition(timelineId), staleTime: 0, gcTime: 0, retry: false });
}

export function useWatchPosition(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getWatchPositionQueryOptions(timelineId), enabled, refetchOnMount: 'always' });
}

/**
 * Saves the place. With `keepalive` the request still goes out while the page is hidden or closed
 * (a fetch, not `sendBeacon`: a beacon cannot carry the bearer token). A failure is only logged:
 * the next save, seconds later, says the same and more.
 */
export function saveWatchPosition(timelineId: string, place: WatchPlace, { keepalive = false }: { keepalive?: boolean } = {}): Promise<void> {
  return api
    .PUT('/api/timelines/{id}/watch-position', { params: { path: { id: timelineId } }, body: place, keepalive })
    .then(() => undefined)
    .catch((error: unknown) => console.warn('Could not save the place in the timeline', error));
}

/** The timeline was watched to its end: nothing left to resume. */
export function clearWatchPosition(timelineId: string, { keepalive = false }: { keepalive?: boolean } = {}): Promise<void> {
  return api
    .DELETE('/api/timelines/{id}/watch-position', { params: { path: { id: timelineId } }, keepalive })
    .then(() => undefined)
    .catch((error: unknown) => console.warn('Could not clear the place in the timeline', error));
}
