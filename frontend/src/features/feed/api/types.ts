/**
 * The home feed's shapes (spec 000, sections 3 and 7). Hand-written: the feed and post endpoints
 * are not in `src/api/openapi.json` yet; replace these with aliases of the generated schemas once
 * they are.
 */

export interface UserSummary {
  id: string;
  displayName: string;
  username: string;
  avatar: string | null;
}

export interface Post {
  id: string;
  userId: string;
  content: string;
  hashtags: string[];
  mentions: string[];
  createdAt: string;
  updatedAt: string;
  edited: boolean;
  likesCount: number;
  commentsCount: number;
  liked: boolean;
  isLiked: boolean;
  bookmarked: boolean;
  isBookmarked: boolean;
  user: UserSummary;
}

export interface FeedTimeline {
  id: string;
  title: string;
  description: string | null;
  videoCount: number;
  /** Seconds. */
  duration: number;
  creatorId: string;
  creatorName: string;
  creator: UserSummary;
  views: number;
  likesCount: number;
  commentsCount: number;
  activityScore: number;
  lastActivityAt: string;
  createdAt: string;
  updatedAt: string;
  /** A video id: its stream is GET /api/videos/{id}/stream. */
  coverMediaId: string | null;
  isLiked: boolean;
  liked: boolean;
  isBookmarked: boolean;
  bookmarked: boolean;
}

export interface FeedItem {
  type: 'post' | 'timeline';
  id: string;
  post?: Post;
  timeline?: FeedTimeline;
}

export type FeedTab = 'for-you' | 'following';

/** A comment on a post or a timeline, as the feed cards show it. */
export interface FeedComment {
  id: string;
  content: string;
  createdAt: string;
  user: UserSummary;
}

export interface PostComment extends FeedComment {
  postId: string;
}

export interface LikeStatus {
  liked: boolean;
  isLiked: boolean;
  likesCount: number;
}

export interface BookmarkStatus {
  bookmarked: boolean;
  isBookmarked: boolean;
}

export type ReportReason = 'spam' | 'harassment' | 'hate' | 'violence' | 'nudity' | 'misinformation' | 'other';

export interface CreateReport {
  contentType: 'post' | 'timeline';
  contentId: string;
  reason: ReportReason;
  description?: string;
}

/** One page of the feed and where the next one starts (absent on the last page). */
export interface FeedPage {
  items: FeedItem[];
  nextCursor: string | null;
}
