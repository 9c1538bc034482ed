import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { collectionQueryKey } from './get-collection';
import type { CollectionTimeline } from './types';

export const collectionTimelinesQueryKey = (id: string) => [...collectionQueryKey(id), 'timelines'] as const;

export async function getCollectionTimelines(id: string): Promise<CollectionTimeline[]> {
  const list = await unwrap(api.GET('/api/collections/{id}/timelines', { params: { path: { id } } }));
  return Array.isArray(list) ? list : [];
}

export function useCollectionTimelines(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: collectionTimelinesQueryKey(id), queryFn: () => getCollectionTimelines(id), enabled });
}
