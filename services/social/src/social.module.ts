import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { EventWriter, type TimelineAccess, Transactions } from '@timeliner/platform';
import { TimelineSummaryRepository } from './access/timeline-summary.repository.js';
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
import { FollowRequestController } from './follows/follow-request.controller.js';
import { FollowRequestRepository } from './follows/follow-request.repository.js';
import { FollowRequestService } from './follows/follow-request.service.js';
import { FollowController } from './follows/follow.controller.js';
import { FollowRepository } from './follows/follow.repository.js';
import { FollowService } from './follows/follow.service.js';
import { ModerationController, ModerationNoticeController } from './moderation/moderation.controller.js';
import { ModerationRepository } from './moderation/moderation.repository.js';
import { ModerationService } from './moderation/moderation.service.js';
import { PersonRepository } from './people/person.repository.js';
import { PersonFilterController, PersonFilterListController } from './person-filters/person-filter.controller.js';
import { BlockedPersonGuard } from './person-filters/blocked-person.guard.js';
import { CommentFilterInterceptor } from './person-filters/comment-filter.interceptor.js';
import { BlockedTimelineAccess } from './person-filters/blocked-timeline-access.js';
import { BlockedVisibleTimelines } from './person-filters/blocked-visible-timelines.js';
import { PersonFilterRepository } from './person-filters/person-filter.repository.js';
import { PersonFilterService } from './person-filters/person-filter.service.js';
import { PostCommentControlsController, TimelineCommentControlsController, VideoCommentControlsController } from './comment-controls/comment-controls.controller.js';
import { CommentControlsRepository } from './comment-controls/comment-controls.repository.js';
import { CommentControlsService } from './comment-controls/comment-controls.service.js';
import { PostController } from './posts/post.controller.js';
import { PostRepository } from './posts/post.repository.js';
import { PostService } from './posts/post.service.js';
import { ReportController } from './reports/report.controller.js';
import { ReportRepository } from './reports/report.repository.js';
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
      controllers: [TimelineCommentController, TimelineReactionController, VideoLikeController, VideoCommentController, FollowController, FollowRequestController, PostController, ReportController, FeedController, CollectionController, TimelineCollectionController, BookmarkController, ActivityController, UserTimelineController, TimelineCommentControlsController, VideoCommentControlsController, PostCommentControlsController, PersonFilterController, PersonFilterListController, ModerationController, ModerationNoticeController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: EventWriter, useValue: deps.events },
        // Blocks apply to every timeline route here (person-filters/blocked-timeline-access.ts).
        { provide: TIMELINE_ACCESS, useFactory: (ds: DataSource) => new BlockedTimelineAccess(deps.timelineAccess, new PersonFilterRepository(ds)), inject: [DataSource] },
        { provide: Transactions, useFactory: (ds: DataSource) => new Transactions(ds), inject: [DataSource] },
        { provide: PersonRepository, useFactory: (ds: DataSource) => new PersonRepository(ds), inject: [DataSource] },
        { provide: TimelineCommentRepository, useFactory: (ds: DataSource) => new TimelineCommentRepository(ds), inject: [DataSource] },
        {
          provide: TimelineCommentService,
          useFactory: (tx: Transactions, comments: TimelineCommentRepository, access: TimelineAccess, events: EventWriter) => new TimelineCommentService(tx, comments, access, events),
          inject: [Transactions, TimelineCommentRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: TimelineReactionRepository, useFactory: (ds: DataSource) => new TimelineReactionRepository(ds), inject: [DataSource] },
        {
          provide: TimelineReactionService,
          useFactory: (tx: Transactions, reactions: TimelineReactionRepository, access: TimelineAccess, events: EventWriter) => new TimelineReactionService(tx, reactions, access, events),
          inject: [Transactions, TimelineReactionRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: VideoRepository, useFactory: (ds: DataSource) => new VideoRepository(ds), inject: [DataSource] },
        { provide: VideoLikeRepository, useFactory: (ds: DataSource) => new VideoLikeRepository(ds), inject: [DataSource] },
        {
          provide: VideoLikeService,
          useFactory: (tx: Transactions, videos: VideoRepository, likes: VideoLikeRepository, access: TimelineAccess, events: EventWriter) => new VideoLikeService(tx, videos, likes, access, events),
          inject: [Transactions, VideoRepository, VideoLikeRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: VideoCommentRepository, useFactory: (ds: DataSource) => new VideoCommentRepository(ds), inject: [DataSource] },
        {
          provide: VideoCommentService,
          useFactory: (tx: Transactions, videos: VideoRepository, comments: VideoCommentRepository, access: TimelineAccess, events: EventWriter) => new VideoCommentService(tx, videos, comments, access, events),
          inject: [Transactions, VideoRepository, VideoCommentRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: FollowRepository, useFactory: (ds: DataSource) => new FollowRepository(ds), inject: [DataSource] },
        { provide: FollowRequestRepository, useFactory: (ds: DataSource) => new FollowRequestRepository(ds), inject: [DataSource] },
        {
          provide: FollowService,
          useFactory: (tx: Transactions, follows: FollowRepository, people: PersonRepository, events: EventWriter, requests: FollowRequestRepository) => new FollowService(tx, follows, people, events, requests),
          inject: [Transactions, FollowRepository, PersonRepository, EventWriter, FollowRequestRepository],
        },
        {
          provide: FollowRequestService,
          useFactory: (tx: Transactions, requests: FollowRequestRepository, events: EventWriter) => new FollowRequestService(tx, requests, events),
          inject: [Transactions, FollowRequestRepository, EventWriter],
        },
        { provide: PersonFilterRepository, useFactory: (ds: DataSource) => new PersonFilterRepository(ds), inject: [DataSource] },
        // Every route about a person is 404 to a blocked pair (person-filters/blocked-person.guard.ts).
        { provide: APP_GUARD, useFactory: (filters: PersonFilterRepository) => new BlockedPersonGuard(filters), inject: [PersonFilterRepository] },
        // Comments of a blocked pair left out, of muted people and words marked (person-filters/comment-filter.interceptor.ts).
        { provide: APP_INTERCEPTOR, useFactory: (filters: PersonFilterRepository) => new CommentFilterInterceptor(filters), inject: [PersonFilterRepository] },
        {
          provide: PersonFilterService,
          useFactory: (tx: Transactions, filters: PersonFilterRepository, follows: FollowRepository, requests: FollowRequestRepository, events: EventWriter) =>
            new PersonFilterService(tx, filters, follows, requests, events),
          inject: [Transactions, PersonFilterRepository, FollowRepository, FollowRequestRepository, EventWriter],
        },
        { provide: PostRepository, useFactory: (ds: DataSource) => new PostRepository(ds), inject: [DataSource] },
        {
          provide: PostService,
          useFactory: (tx: Transactions, posts: PostRepository, events: EventWriter) => new PostService(tx, posts, events),
          inject: [Transactions, PostRepository, EventWriter],
        },
        { provide: CommentControlsRepository, useFactory: (ds: DataSource) => new CommentControlsRepository(ds), inject: [DataSource] },
        {
          provide: CommentControlsService,
          useFactory: (tx: Transactions, controls: CommentControlsRepository, posts: PostRepository, videos: VideoRepository, videoComments: VideoCommentRepository, access: TimelineAccess, events: EventWriter) =>
            new CommentControlsService(tx, controls, posts, videos, videoComments, access, events),
          inject: [Transactions, CommentControlsRepository, PostRepository, VideoRepository, VideoCommentRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: ReportRepository, useFactory: (ds: DataSource) => new ReportRepository(ds), inject: [DataSource] },
        {
          provide: ReportService,
          useFactory: (tx: Transactions, reports: ReportRepository, access: TimelineAccess, events: EventWriter) => new ReportService(tx, reports, access, events),
          inject: [Transactions, ReportRepository, TIMELINE_ACCESS, EventWriter],
        },
        { provide: ModerationRepository, useFactory: (ds: DataSource) => new ModerationRepository(ds), inject: [DataSource] },
        {
          provide: ModerationService,
          useFactory: (tx: Transactions, moderation: ModerationRepository, events: EventWriter) => new ModerationService(tx, moderation, events),
          inject: [Transactions, ModerationRepository, EventWriter],
        },
        { provide: FeedRepository, useFactory: (ds: DataSource) => new FeedRepository(ds), inject: [DataSource] },
        {
          provide: FeedService,
          useFactory: (feed: FeedRepository, posts: PostRepository) => new FeedService(feed, posts, new ForYouSnapshots(feed, posts)),
          inject: [FeedRepository, PostRepository],
        },
        { provide: TimelineSummaryRepository, useFactory: (ds: DataSource) => new TimelineSummaryRepository(ds), inject: [DataSource] },
        {
          provide: VisibleTimelines,
          // Blocks apply to the timelines of every list (person-filters/blocked-visible-timelines.ts).
          useFactory: (summaries: TimelineSummaryRepository, access: TimelineAccess, filters: PersonFilterRepository) => new BlockedVisibleTimelines(summaries, access, filters),
          inject: [TimelineSummaryRepository, TIMELINE_ACCESS, PersonFilterRepository],
        },
        { provide: CollectionRepository, useFactory: (ds: DataSource) => new CollectionRepository(ds), inject: [DataSource] },
        {
          provide: CollectionService,
          useFactory: (tx: Transactions, collections: CollectionRepository, timelines: VisibleTimelines) => new CollectionService(tx, collections, timelines),
          inject: [Transactions, CollectionRepository, VisibleTimelines],
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
          useFactory: (people: PersonRepository, activities: ActivityRepository) => new ActivityService(people, activities),
          inject: [PersonRepository, ActivityRepository],
        },
        { provide: UserTimelineRepository, useFactory: (ds: DataSource) => new UserTimelineRepository(ds), inject: [DataSource] },
        {
          provide: UserTimelineService,
          useFactory: (people: PersonRepository, timelines: UserTimelineRepository) => new UserTimelineService(people, timelines),
          inject: [PersonRepository, UserTimelineRepository],
        },
      ],
    };
  }
}
