import type { ApiSchemas } from '../../../lib/api-client';

export type Collection = ApiSchemas['CollectionDto'];
export type CollectionTimeline = ApiSchemas['CollectionTimelineDto'];
export type TimelineCollection = ApiSchemas['TimelineCollectionDto'];
export type CollectionInput = ApiSchemas['CreateCollectionDto'];

/** Everything cached about collections starts with this key. */
export const COLLECTIONS_QUERY_KEY = ['collections'] as const;
