import type { ApiSchemas } from '../../../lib/api-client';

/** The home feed's shapes (spec 000, sections 3 and 7), as the OpenAPI document describes them. */

export type UserSummary = ApiSchemas['UserSummaryDto'];

export type Post = ApiSchemas['PostDto'];

export type FeedTimeline = ApiSchemas['FeedTimelineDto'];

export type FeedItem = ApiSchemas['FeedItemDto'];

export type FeedTab = 'for-you' | 'following';

export type ReportReason = ApiSchemas['CreateReportDto']['reason'];

/** A post or timeline of the feed, a single video or image in the player, or a comment on any of them. */
export type CreateReport = ApiSchemas['CreateReportDto'];

/** One page of the feed and where the next one starts (absent on the last page). */
export interface FeedPage {
  items: FeedItem[];
  nextCursor: string | null;
}
