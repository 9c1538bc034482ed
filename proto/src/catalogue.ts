/**
 * The NATS subject catalogue: every event and request/reply message that crosses a process
 * boundary, with its version. Producers and consumers refer to these constants, never to subject
 * strings, so a call site reads `AuthEvents.UserRegistered`.
 *
 * Changing a payload incompatibly means a new version (`defineEvent(type, 2, ...)`) published
 * beside the old one until every consumer has moved; `buf breaking` guards the schemas.
 */
import { AccountDeletionChangedSchema, SessionRevokedSchema, UserDeletedSchema, UserRegisteredSchema, UserUpdatedSchema } from './gen/timeliner/auth/v1/events_pb.js';
import { VerifySessionReplySchema, VerifySessionRequestSchema } from './gen/timeliner/auth/v1/session_pb.js';
import { LookupUserReplySchema, LookupUserRequestSchema } from './gen/timeliner/auth/v1/users_pb.js';
import { ReplayAccountDeletionsReplySchema, ReplayAccountDeletionsRequestSchema, ReplayPeopleReplySchema, ReplayPeopleRequestSchema } from './gen/timeliner/auth/v1/replay_pb.js';
import {
  CommentAddedSchema,
  CommentDeletedSchema,
  FollowChangedSchema,
  PostCreatedSchema,
  PostDeletedSchema,
  PostUpdatedSchema,
  ReactionChangedSchema,
  ReportFiledSchema,
  TimelineCommentAddedSchema,
  TimelineCommentDeletedSchema,
} from './gen/timeliner/social/v1/events_pb.js';
import { CheckTimelineAccessReplySchema, CheckTimelineAccessRequestSchema } from './gen/timeliner/timelines/v1/access_pb.js';
import { ReplayTimelinesReplySchema, ReplayTimelinesRequestSchema } from './gen/timeliner/timelines/v1/replay_pb.js';
import {
  ReplayFollowCountsReplySchema,
  ReplayFollowCountsRequestSchema,
  ReplayModerationReplySchema,
  ReplayModerationRequestSchema,
  ReplayTimelineLikesReplySchema,
  ReplayTimelineLikesRequestSchema,
} from './gen/timeliner/social/v1/replay_pb.js';
import { StaffRoleReplySchema, StaffRoleRequestSchema } from './gen/timeliner/social/v1/staff_pb.js';
import { CommentApprovedSchema, CommentHeldSchema } from './gen/timeliner/social/v1/comment_controls_pb.js';
import { FollowRequestChangedSchema } from './gen/timeliner/social/v1/follow_requests_pb.js';
import { BlockChangedSchema, MuteChangedSchema, MutedWordsChangedSchema } from './gen/timeliner/social/v1/filters_pb.js';
import { AccountSuspensionChangedSchema, ContentModeratedSchema, ModerationNoticeSchema } from './gen/timeliner/social/v1/moderation_pb.js';
import { RebuildReadModelReplySchema, RebuildReadModelRequestSchema } from './gen/timeliner/platform/v1/read_model_pb.js';
import {
  CollaboratorAddedSchema,
  CollaboratorRemovedSchema,
  InvitationAcceptedSchema,
  InvitationCancelledSchema,
  InvitationCreatedSchema,
  InvitationDeclinedSchema,
  OwnershipTransferredSchema,
  TimelineCreatedSchema,
  TimelineDeletedSchema,
  TimelinePublishedSchema,
  TimelineSnapshotSchema,
  TimelineUnpublishedSchema,
  TimelineUpdatedSchema,
} from './gen/timeliner/timelines/v1/events_pb.js';
import { ExportCompletedSchema, ExportDownloadedSchema, ImageProcessedSchema, MediaAltTextChangedSchema, MediaDeletedSchema, MediaReorderedSchema, UploadCompletedSchema, VideoFailedSchema, VideoProcessedSchema } from './gen/timeliner/media/v1/events_pb.js';
import { ExportTimelineJobSchema, ProcessMediaJobSchema } from './gen/timeliner/media/v1/jobs_pb.js';
import { ReplayMediaReplySchema, ReplayMediaRequestSchema } from './gen/timeliner/media/v1/replay_pb.js';
import { NotificationChangedSchema } from './gen/timeliner/notifications/v1/events_pb.js';
import { DeliverPushJobSchema } from './gen/timeliner/notifications/v1/jobs_pb.js';
import { defineEvent, defineRpc } from './define.js';

export const AuthEvents = {
  UserRegistered: defineEvent('auth.user.registered', 1, UserRegisteredSchema),
  UserUpdated: defineEvent('auth.user.updated', 1, UserUpdatedSchema),
  SessionRevoked: defineEvent('auth.session.revoked', 1, SessionRevokedSchema),
  /** An account is gone for good: every service forgets what names the person. */
  UserDeleted: defineEvent('auth.user.deleted', 1, UserDeletedSchema),
  /** A deletion asked for (the person leaves everyone else's sight as if suspended) or cancelled (back in sight), versioned. */
  AccountDeletionChanged: defineEvent('auth.account.deletion.changed', 1, AccountDeletionChangedSchema),
} as const;

export const AuthRpc = {
  /** The gateway resolves a bearer token (by its SHA-256 hex) to a session. Queue group `auth`. */
  VerifySession: defineRpc('auth.session.verify', 1, VerifySessionRequestSchema, VerifySessionReplySchema),
  /** Does this e-mail address have an account? Asked by services only. Queue group `auth`. */
  LookupUser: defineRpc('auth.user.lookup', 1, LookupUserRequestSchema, LookupUserReplySchema),
  /** The people as they stand, one page at a time: what a read model of people rebuilds itself from. Queue group `auth`. */
  Replay: defineRpc('auth.user.replay', 1, ReplayPeopleRequestSchema, ReplayPeopleReplySchema),
  /**
   * The accounts waiting to be deleted, one page at a time, with their AccountDeletionChanged
   * version: what the moderation copies' `account_deletion` rows rebuild from. Queue group `auth`.
   */
  ReplayAccountDeletions: defineRpc('auth.account_deletion.replay', 1, ReplayAccountDeletionsRequestSchema, ReplayAccountDeletionsReplySchema),
} as const;

export const TimelinesEvents = {
  TimelineCreated: defineEvent('timelines.timeline.created', 1, TimelineCreatedSchema),
  TimelineUpdated: defineEvent('timelines.timeline.updated', 1, TimelineUpdatedSchema),
  TimelinePublished: defineEvent('timelines.timeline.published', 1, TimelinePublishedSchema),
  TimelineUnpublished: defineEvent('timelines.timeline.unpublished', 1, TimelineUnpublishedSchema),
  TimelineDeleted: defineEvent('timelines.timeline.deleted', 1, TimelineDeletedSchema),
  /** The whole timeline after any change (feed and search read models); keep the newest `revision`. */
  TimelineSnapshot: defineEvent('timelines.timeline.snapshot', 1, TimelineSnapshotSchema),
  CollaboratorAdded: defineEvent('timelines.collaborator.added', 1, CollaboratorAddedSchema),
  CollaboratorRemoved: defineEvent('timelines.collaborator.removed', 1, CollaboratorRemovedSchema),
  OwnershipTransferred: defineEvent('timelines.ownership.transferred', 1, OwnershipTransferredSchema),
  InvitationCreated: defineEvent('timelines.invitation.created', 1, InvitationCreatedSchema),
  InvitationAccepted: defineEvent('timelines.invitation.accepted', 1, InvitationAcceptedSchema),
  InvitationDeclined: defineEvent('timelines.invitation.declined', 1, InvitationDeclinedSchema),
  InvitationCancelled: defineEvent('timelines.invitation.cancelled', 1, InvitationCancelledSchema),
} as const;

export const TimelinesRpc = {
  /** May this user see (or edit) this timeline? Asked by the gateway and by services. Queue group `timelines`. */
  CheckAccess: defineRpc('timelines.access.check', 1, CheckTimelineAccessRequestSchema, CheckTimelineAccessReplySchema),
  /**
   * The timelines as they stand, one page at a time, as their last snapshots (same revision): what
   * a read model rebuilds itself from. Queue group `timelines`.
   */
  Replay: defineRpc('timelines.timeline.replay', 1, ReplayTimelinesRequestSchema, ReplayTimelinesReplySchema),
} as const;

/**
 * Rebuilding a service's read models from the producers' current state (`npm run read-model --
 * rebuild <service>`): the request starts it on one replica of the service's queue group, progress
 * is broadcast on `ReadModelRebuild.progressSubject(service)`.
 */
export const ReadModelRebuild = {
  rpc: (service: string) => defineRpc(`${service}.read_model.rebuild`, 1, RebuildReadModelRequestSchema, RebuildReadModelReplySchema),
  progressSubject: (service: string) => `read_model.progress.${service}`,
} as const;

export const SocialEvents = {
  TimelineCommentAdded: defineEvent('social.timeline_comment.added', 1, TimelineCommentAddedSchema),
  TimelineCommentDeleted: defineEvent('social.timeline_comment.deleted', 1, TimelineCommentDeletedSchema),
  /** Likes and bookmarks of posts, timelines and videos, with the target's versioned count. */
  ReactionChanged: defineEvent('social.reaction.changed', 1, ReactionChangedSchema),
  PostCreated: defineEvent('social.post.created', 1, PostCreatedSchema),
  PostUpdated: defineEvent('social.post.updated', 1, PostUpdatedSchema),
  PostDeleted: defineEvent('social.post.deleted', 1, PostDeletedSchema),
  /** Comments on posts and videos and replies to video comments (timeline comments have their own). */
  CommentAdded: defineEvent('social.comment.added', 1, CommentAddedSchema),
  CommentDeleted: defineEvent('social.comment.deleted', 1, CommentDeletedSchema),
  /** A comment waits for the approval of its item's moderators; nobody else is told of it yet. */
  CommentHeld: defineEvent('social.comment.held', 1, CommentHeldSchema),
  /** A held comment was approved: its author is told (its CommentAdded/TimelineCommentAdded follows). */
  CommentApproved: defineEvent('social.comment.approved', 1, CommentApprovedSchema),
  FollowChanged: defineEvent('social.follow.changed', 1, FollowChangedSchema),
  ReportFiled: defineEvent('social.report.filed', 1, ReportFiledSchema),
  /** A request to follow a private account: asked, approved, declined or taken back (a request is not a follow). */
  FollowRequestChanged: defineEvent('social.follow_request.changed', 1, FollowRequestChangedSchema),
  /** A block or its lifting, versioned per pair: every read model hides the pair from each other. */
  BlockChanged: defineEvent('social.block.changed', 1, BlockChangedSchema),
  /** An account muted or unmuted, versioned per pair; never told to the muted person. */
  MuteChanged: defineEvent('social.mute.changed', 1, MuteChangedSchema),
  /** A person's whole list of muted words and hashtags after a change, versioned. */
  MutedWordsChanged: defineEvent('social.muted_words.changed', 1, MutedWordsChangedSchema),
  /** A moderator hid, restored or marked sensitive an item, versioned: every read model hides it. */
  ContentModerated: defineEvent('social.content.moderated', 1, ContentModeratedSchema),
  /** An account suspended or its suspension lifted, versioned: auth ends its sessions and refuses its sign-in. */
  AccountSuspensionChanged: defineEvent('social.account.suspension.changed', 1, AccountSuspensionChangedSchema),
  /** A reporter told the outcome of their report, or an author what moderators did and why. */
  ModerationNotice: defineEvent('social.moderation.notice', 1, ModerationNoticeSchema),
} as const;

export const SocialRpc = {
  /**
   * The timelines' like counts as they stand, one page at a time, with their count_version: what
   * the timelines service's likes_count rebuilds itself from. Queue group `social`.
   */
  ReplayTimelineLikes: defineRpc('social.timeline_likes.replay', 1, ReplayTimelineLikesRequestSchema, ReplayTimelineLikesReplySchema),
  /**
   * People's follower and following counts as they stand, one page at a time, with the versions
   * their FollowChanged events carry: what the auth service's profile counts rebuild from.
   * Queue group `social`.
   */
  ReplayFollowCounts: defineRpc('social.follow_counts.replay', 1, ReplayFollowCountsRequestSchema, ReplayFollowCountsReplySchema),
  /**
   * The moderation desk's standing decisions (items hidden or marked sensitive, accounts
   * suspended), one page at a time, with the versions their events carry: what the other
   * services' moderation copies rebuild from. Queue group `social`.
   */
  ReplayModeration: defineRpc('social.moderation.replay', 1, ReplayModerationRequestSchema, ReplayModerationReplySchema),
  /**
   * A person's staff role (moderator, admin, or none): asked by the timelines and media services
   * only when a signed-in caller opens something the moderators took out, so staff see it in
   * context. No answer in time means not staff. Queue group `social`.
   */
  StaffRole: defineRpc('social.staff_role.get', 1, StaffRoleRequestSchema, StaffRoleReplySchema),
} as const;

export const MediaEvents = {
  UploadCompleted: defineEvent('media.upload.completed', 1, UploadCompletedSchema),
  VideoProcessed: defineEvent('media.video.processed', 1, VideoProcessedSchema),
  VideoFailed: defineEvent('media.video.failed', 1, VideoFailedSchema),
  ImageProcessed: defineEvent('media.image.processed', 1, ImageProcessedSchema),
  MediaDeleted: defineEvent('media.media.deleted', 1, MediaDeletedSchema),
  MediaReordered: defineEvent('media.media.reordered', 1, MediaReorderedSchema),
  /** An item's alt text (image) or short description (video) was set: the timelines service keeps its cover's. */
  MediaAltTextChanged: defineEvent('media.media.alt_text_changed', 1, MediaAltTextChangedSchema),
  /** A timeline export finished; its requester may download it. */
  ExportCompleted: defineEvent('media.export.completed', 1, ExportCompletedSchema),
  /** An export's file was downloaded from its start: the timeline's analytics count it. */
  ExportDownloaded: defineEvent('media.export.downloaded', 1, ExportDownloadedSchema),
} as const;

export const MediaRpc = {
  /**
   * The videos and images as they stand, one page at a time, with their texts' versions: what the
   * copies of the media (social's and notifications' videos, the timelines' descriptions) rebuild
   * themselves from. Queue group `media`.
   */
  Replay: defineRpc('media.media.replay', 1, ReplayMediaRequestSchema, ReplayMediaReplySchema),
} as const;

/** The notifications service's own events: its outbox carries them to its delivery consumer group. */
export const NotificationEvents = {
  /** A person's notifications changed: their sockets are told and their browsers pushed once delivered. */
  NotificationChanged: defineEvent('notifications.notification.changed', 1, NotificationChangedSchema),
} as const;

/**
 * Work-queue jobs: the same definition shape as events (type, version, schema), carried on a
 * work-queue stream where each job goes to exactly one worker.
 */
export const MediaJobs = {
  Process: defineEvent('media.job.process', 1, ProcessMediaJobSchema),
  Export: defineEvent('media.job.export', 1, ExportTimelineJobSchema),
} as const;

export const NotificationJobs = {
  /** One Web Push message to one subscription, retried with back-off by the notifications worker. */
  DeliverPush: defineEvent('notifications.job.push', 1, DeliverPushJobSchema),
} as const;
