import { api, unwrap } from '../../../lib/api-client';

/** Puts a timeline in a collection; the answer is the collection's timelines. */
export function addTimelineToCollection(collectionId: string, timelineId: string) {
  return unwrap(api.POST('/api/collections/{id}/timelines', { params: { path: { id: collectionId } }, body: { timelineId } }));
}
