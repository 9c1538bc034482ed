import type { ApiSchemas } from '../../../lib/api-client';

/** The home feed's shapes (spec 000, sections 3 and 7), as the OpenAPI document describes them. */

export type UserSummary = ApiSchemas['UserSummaryDto'];

export type Post = ApiSchemas['PostDto'];

export type FeedTimeline = ApiSchemas['FeedTimelineDto'];

export type FeedItem = ApiSchemas['FeedItemDto'];

export type FeedTab = 'for-you' | 'following';

export type ReportReason = ApiSchemas['CreateReportDto']['reason'];

/** A report from a feed card: the feed's own kinds of item. */
/** A post or timeline of the feed, or a single video or image in the player. */
export type CreateReport = Omit<ApiSchemas['CreateReportDto'], 'contentType'> & { contentType: FeedItem['type'] | 'video' };

/** One page of the feed and where the next one starts (absent on the last page). */
export interface FeedPage {
  items: FeedItem[];
  nextCursor: string | null;
}
