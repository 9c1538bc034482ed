import { busEntities, moderationCopyEntities } from '@timeliner/platform';
import { Activity } from './activity/activity.entity.js';
import { Collection, CollectionTimeline } from './collections/collection.entity.js';
import { FeedInboxEntry } from './feed-index/feed-inbox.entity.js';
import { FeedKeyHistory } from './feed-index/feed-key-history.entity.js';
import { DeletedTimeline, FeedTimeline } from './feed/feed-timeline.entity.js';
import { FollowRequest, FollowRequestCount } from './follows/follow-request.entity.js';
import { Follow, FollowCount } from './follows/follow.entity.js';
import { PostComment } from './posts/post-comment.entity.js';
import { Post, PostBookmark, PostLike } from './posts/post.entity.js';
import { Block, Mute, MutedWord } from './person-filters/person-filter.entity.js';
import { moderationEntities } from './moderation/moderation.entity.js';
import { CommentSettings } from './comment-rules/comment-settings.entity.js';
import { ContentReport } from './reports/content-report.entity.js';
import { TimelineComment } from './timeline-comments/timeline-comment.entity.js';
import { TimelineBookmark, TimelineLike, TimelineReactionCount } from './timeline-reactions/timeline-reaction.entity.js';
import { UserRecord } from './users/user.entity.js';
import { VideoComment } from './video-comments/video-comment.entity.js';
import { VideoLike, VideoRecord } from './videos/video.entity.js';

export const socialEntities = [
  UserRecord,
  TimelineComment,
  Post,
  PostLike,
  PostBookmark,
  PostComment,
  TimelineLike,
  TimelineBookmark,
  TimelineReactionCount,
  VideoRecord,
  VideoLike,
  VideoComment,
  Follow,
  FollowCount,
  FollowRequest,
  FollowRequestCount,
  ContentReport,
  FeedTimeline,
  DeletedTimeline,
  FeedKeyHistory,
  FeedInboxEntry,
  Collection,
  CollectionTimeline,
  Activity,
  CommentSettings,
  Block,
  Mute,
  MutedWord,
  ...moderationEntities,
  // Here only accounts waiting to be deleted (migration 1768500000000).
  ...moderationCopyEntities,
  ...busEntities,
];
