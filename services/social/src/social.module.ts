import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventWriter, type TimelineAccess } from '@timeliner/platform';
import { VisibleTimelines } from './access/visible-timelines.js';
import { ActivityController } from './activity/activity.controller.js';
import { ActivityRepository } from './activity/activity.repository.js';
import { ActivityService } from './activity/activity.service.js';
import { BookmarkController } from './bookmarks/bookmark.controller.js';
import { BookmarkRepository } from './bookmarks/bookmark.repository.js';
import { BookmarkService } from './bookmarks/bookmark.service.js';
import { CollectionController, TimelineCollectionController } from './collections/collection.controller.js';
import { CollectionRepository } from './collections/collection.repository.js';
import { CollectionService } from './collections/collection.service.js';
import { FeedController } from './feed/feed.controller.js';
import { FeedRepository } from './feed/feed.repository.js';
import { FeedService } from './feed/feed.service.js';
import { ForYouSnapshots } from './feed/for-you-snapshot.js';
import { FollowController } from './follows/follow.controller.js';
import { FollowRepository } from './follows/follow.repository.js';
import { FollowService } from './follows/follow.service.js';
import { PostController } from './posts/post.controller.js';
import { PostRepository } from './posts/post.repository.js';
import { PostService } from './posts/post.service.js';
import { ReportController } from './reports/report.controller.js';
import { ReportService } from './reports/report.service.js';
import { TimelineCommentController } from './timeline-comments/timeline-comment.controller.js';
import { TimelineCommentRepository } from './timeline-comments/timeline-comment.repository.js';
import { TimelineCommentService } from './timeline-comments/timeline-comment.service.js';
import { TimelineReactionController } from './timeline-reactions/timeline-reaction.controller.js';
import { TimelineReactionRepository } from './timeline-reactions/timeline-reaction.repository.js';
import { TimelineReactionService } from './timeline-reactions/timeline-reaction.service.js';
import { UserTimelineController } from './user-timelines/user-timeline.controller.js';
import { UserTimelineRepository } from './user-timelines/user-timeline.repository.js';
import { UserTimelineService } from './user-timelines/user-timeline.service.js';
import { VideoCommentController } from './video-comments/video-comment.controller.js';
import { VideoCommentRepository } from './video-comments/video-comment.repository.js';
import { VideoCommentService } from './video-comments/video-comment.service.js';
import { VideoLikeController } from './videos/video-like.controller.js';
import { VideoLikeRepository } from './videos/video-like.repository.js';
import { VideoLikeService } from './videos/video-like.service.js';
import { VideoRepository } from './videos/video.repository.js';

export interface SocialModuleDeps {
  dataSource: DataSource;
  events: EventWriter;
  timelineAccess: TimelineAccess;
}

/** Injection token of the timelines-service port. */
export const TIMELINE_ACCESS = Symbol('TimelineAccess');

/**
 * One controller, service and repository per resource, each in its own folder.
 */
@Module({})
export class SocialModule {
  static forRoot(deps: SocialModuleDeps): DynamicModule {
    return {
      module: SocialModule,
      controllers: [TimelineCommentController, TimelineReactionController, VideoLikeController, VideoCommentController, FollowController, PostController, ReportController, FeedController, CollectionController, TimelineCollectionController, BookmarkController, ActivityController, UserTimelineController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: EventWriter, useValue: deps.events },
        { provide: TIMELINE_ACCESS, useValue: deps.timelineAccess },
        { provide: TimelineCommentRepository, useFactory: (ds: DataSource) => new TimelineCommentRepository(ds), inject: [DataSource] },
        {
          provide: TimelineCommentService,
          useFactory: (ds: DataSource, comments: TimelineCommentRepository, access: TimelineAccess, events: EventWriter) => new TimelineCommentService(ds, comments, access, events),
          inject: [DataSource, TimelineCommentRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: TimelineReactionRepository, useFactory: (ds: DataSource) => new TimelineReactionRepository(ds), inject: [DataSource] },
        {
          provide: TimelineReactionService,
          useFactory: (ds: DataSource, reactions: TimelineReactionRepository, access: TimelineAccess, events: EventWriter) => new TimelineReactionService(ds, reactions, access, events),
          inject: [DataSource, TimelineReactionRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: VideoRepository, useFactory: (ds: DataSource) => new VideoRepository(ds), inject: [DataSource] },
        { provide: VideoLikeRepository, useFactory: (ds: DataSource) => new VideoLikeRepository(ds), inject: [DataSource] },
        {
          provide: VideoLikeService,
          useFactory: (ds: DataSource, videos: VideoRepository, likes: VideoLikeRepository, access: TimelineAccess, events: EventWriter) => new VideoLikeService(ds, videos, likes, access, events),
          inject: [DataSource, VideoRepository, VideoLikeRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: VideoCommentRepository, useFactory: (ds: DataSource) => new VideoCommentRepository(ds), inject: [DataSource] },
        {
          provide: VideoCommentService,
          useFactory: (ds: DataSource, videos: VideoRepository, comments: VideoCommentRepository, access: TimelineAccess, events: EventWriter) => new VideoCommentService(ds, videos, comments, access, events),
          inject: [DataSource, VideoRepository, VideoCommentRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: FollowRepository, useFactory: (ds: DataSource) => new FollowRepository(ds), inject: [DataSource] },
        {
          provide: FollowService,
          useFactory: (ds: DataSource, follows: FollowRepository, events: EventWriter) => new FollowService(ds, follows, events),
          inject: [DataSource, FollowRepository, EventWriter],
        },
        { provide: PostRepository, useFactory: (ds: DataSource) => new PostRepository(ds), inject: [DataSource] },
        {
          provide: PostService,
          useFactory: (ds: DataSource, posts: PostRepository, events: EventWriter) => new PostService(ds, posts, events),
          inject: [DataSource, PostRepository, EventWriter],
        },
        {
          provide: ReportService,
          useFactory: (ds: DataSource, access: TimelineAccess, events: EventWriter) => new ReportService(ds, access, events),
          inject: [DataSource, TIMELINE_ACCESS, EventWriter],
        },
        { provide: FeedRepository, useFactory: (ds: DataSource) => new FeedRepository(ds), inject: [DataSource] },
        {
          provide: FeedService,
          useFactory: (feed: FeedRepository, posts: PostRepository) => new FeedService(feed, posts, new ForYouSnapshots(feed, posts)),
          inject: [FeedRepository, PostRepository],
        },
        { provide: VisibleTimelines, useFactory: (ds: DataSource, access: TimelineAccess) => new VisibleTimelines(ds, access), inject: [DataSource, TIMELINE_ACCESS] },
        { provide: CollectionRepository, useFactory: (ds: DataSource) => new CollectionRepository(ds), inject: [DataSource] },
        {
          provide: CollectionService,
          useFactory: (ds: DataSource, collections: CollectionRepository, timelines: VisibleTimelines) => new CollectionService(ds, collections, timelines),
          inject: [DataSource, CollectionRepository, VisibleTimelines],
        },
        { provide: BookmarkRepository, useFactory: (ds: DataSource) => new BookmarkRepository(ds), inject: [DataSource] },
        {
          provide: BookmarkService,
          useFactory: (bookmarks: BookmarkRepository, posts: PostRepository, timelines: VisibleTimelines) => new BookmarkService(bookmarks, posts, timelines),
          inject: [BookmarkRepository, PostRepository, VisibleTimelines],
        },
        { provide: ActivityRepository, useFactory: (ds: DataSource) => new ActivityRepository(ds), inject: [DataSource] },
        {
          provide: ActivityService,
          useFactory: (ds: DataSource, activities: ActivityRepository) => new ActivityService(ds, activities),
          inject: [DataSource, ActivityRepository],
        },
        { provide: UserTimelineRepository, useFactory: (ds: DataSource) => new UserTimelineRepository(ds), inject: [DataSource] },
        {
          provide: UserTimelineService,
          useFactory: (ds: DataSource, timelines: UserTimelineRepository) => new UserTimelineService(ds, timelines),
          inject: [DataSource, UserTimelineRepository],
        },
      ],
    };
  }
}
