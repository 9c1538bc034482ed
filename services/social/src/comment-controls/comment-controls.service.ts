import { BadRequestException, ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { EntityManager } from 'typeorm';
import {
  type Caller, decodeCursor, encodeCursor, type EventWriter, isUuid, type Page, type SignedInCaller, type TimelineAccess, type TimelineAccessAnswer, type Transactions,
} from '@timeliner/platform';
import { SocialEvents, TargetType } from '@timeliner/proto';
import { announcedTimeline, requireVisibleTimeline } from '../access/timeline-access.js';
import { recordActivity } from '../activity/activity-recorder.js';
import { DEFAULT_PAGE_SIZE, type PageQueryDto } from '../pagination/page-queries.js';
import type { PostRepository } from '../posts/post.repository.js';
import { mentionsOf } from '../posts/post-text.js';
import type { VideoCommentRepository } from '../video-comments/video-comment.repository.js';
import { VIDEO_NOT_FOUND, type VideoRepository } from '../videos/video.repository.js';
import type { ControlledItem } from '../comment-rules/comment-gate.js';
import type { CommentControlsRepository, CommentKind, ControlledComment } from './comment-controls.repository.js';
import { type CommentSettingsDto, type HeldCommentDto, mapCommentSettings, mapHeldComment, type UpdateCommentSettingsDto } from './comment-controls.dto.js';
import { moderatesPost, moderatesTimeline } from '../comment-rules/comment-moderators.js';
import { normalizeWords, refusalOf } from '../comment-rules/comment-rules.js';
import { recountTimelineComments } from '../comment-rules/timeline-comment-count.js';

export const COMMENT_NOT_FOUND = 'Comment not found';
const POST_NOT_FOUND = 'Post not found';
export const TIMELINE_MODERATORS_ONLY = 'Only the owner and editors of this timeline can moderate its comments';
export const POST_MODERATOR_ONLY = 'Only the author of this post can moderate its comments';
export const OWN_COMMENTS_ONLY = 'You can only delete your own comments';
export const APPROVE_BEFORE_PINNING = 'Approve the comment before pinning it';
export const REPLIES_NOT_PINNED = 'A reply cannot be pinned';

/**
 * Comment controls of an item's moderators (a timeline's owner and editors, for the timeline and
 * its videos; a post's author): who may comment, which comments wait for approval, the approval
 * queue, approving, pinning one comment, and deleting any comment on their item. Every route
 * checks the caller: a timeline that they may not see is 404, as elsewhere; seeing it without
 * moderating it is 403.
 */
export class CommentControlsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly controls: CommentControlsRepository,
    private readonly posts: PostRepository,
    private readonly videos: VideoRepository,
    private readonly videoComments: VideoCommentRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  // ---- settings -------------------------------------------------------------------------------

  async timelineSettings(caller: Caller, timelineId: string): Promise<CommentSettingsDto> {
    const answer = await requireVisibleTimeline(this.access, timelineId, caller.userId);
    return this.settingsFor({ type: 'timeline', id: timelineId.toLowerCase() }, caller, moderatesTimeline(answer), answer.ownerId.toLowerCase());
  }

  async postSettings(caller: Caller, postId: string): Promise<CommentSettingsDto> {
    const { id, author } = await this.requirePost(postId, caller.userId);
    return this.settingsFor({ type: 'post', id }, caller, moderatesPost(author, caller.userId), author);
  }

  async updateTimelineSettings(caller: SignedInCaller, timelineId: string, dto: UpdateCommentSettingsDto): Promise<CommentSettingsDto> {
    const answer = await this.requireTimelineModerator(caller, timelineId);
    const item: ControlledItem = { type: 'timeline', id: timelineId.toLowerCase() };
    await this.transactions.run((manager) => this.controls.saveRules(manager, item, rulesOf(dto)));
    return this.settingsFor(item, caller, true, answer.ownerId.toLowerCase());
  }

  async updatePostSettings(caller: SignedInCaller, postId: string, dto: UpdateCommentSettingsDto): Promise<CommentSettingsDto> {
    const { id, author } = await this.requirePostModerator(caller, postId);
    const item: ControlledItem = { type: 'post', id };
    await this.transactions.run((manager) => this.controls.saveRules(manager, item, rulesOf(dto)));
    return this.settingsFor(item, caller, true, author);
  }

  // ---- the approval queue ---------------------------------------------------------------------

  async timelineHeld(caller: SignedInCaller, timelineId: string, query: PageQueryDto): Promise<Page<HeldCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    await this.requireTimelineModerator(caller, timelineId);
    return this.heldPage({ type: 'timeline', id: timelineId.toLowerCase() }, query, after);
  }

  async postHeld(caller: SignedInCaller, postId: string, query: PageQueryDto): Promise<Page<HeldCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const { id } = await this.requirePostModerator(caller, postId);
    return this.heldPage({ type: 'post', id }, query, after);
  }

  // ---- approving ------------------------------------------------------------------------------

  /** Approves a held comment on the timeline: it is shown, counted and announced as if just written. */
  async approveTimelineComment(caller: SignedInCaller, timelineId: string, commentId: string): Promise<void> {
    const answer = await this.requireTimelineModerator(caller, timelineId);
    await this.transactions.run(async (manager) => {
      const comment = await this.requireComment(manager, 'timeline', timelineId.toLowerCase(), commentId);
      if (!comment.held) return;
      await this.controls.approve(manager, 'timeline', comment.id);
      const eventId = await this.events.add(manager, SocialEvents.TimelineCommentAdded, {
        commentId: comment.id,
        timelineId: comment.targetId,
        userId: comment.userId,
        createdAt: timestampFromDate(comment.createdAt),
        mentions: mentionsOf(comment.content),
        ...announcedTimeline(answer),
        ...(await recountTimelineComments(manager, comment.targetId)),
      }, { actorUserId: comment.userId, requestId: caller.requestId });
      await recordActivity(manager, {
        sourceEventId: eventId, userId: comment.userId, activityType: 'commented_timeline', targetType: 'timeline', targetId: comment.targetId, createdAt: comment.createdAt.toISOString(),
      });
      await this.approved(manager, caller, comment, TargetType.TIMELINE);
    });
  }

  async approveVideoComment(caller: SignedInCaller, videoId: string, commentId: string): Promise<void> {
    const { video, access } = await this.requireVideoModerator(caller, videoId);
    await this.transactions.run(async (manager) => {
      if (!(await this.videos.find(video.id, manager, true))) throw new NotFoundException(VIDEO_NOT_FOUND);
      const comment = await this.requireComment(manager, 'video', video.id, commentId);
      if (!comment.held) return;
      await this.controls.approve(manager, 'video', comment.id);
      if (comment.parentId) await this.controls.countReply(manager, comment.parentId);
      const counted = await this.videoComments.count(manager, video.id, 1);
      const parent = comment.parentId ? await this.videoComments.find(manager, video.id, comment.parentId) : null;
      await this.events.add(manager, SocialEvents.CommentAdded, {
        commentId: comment.id,
        targetType: TargetType.VIDEO,
        targetId: video.id,
        timelineId: comment.timelineId ?? video.timelineId,
        ...announcedTimeline(access),
        userId: comment.userId,
        parentCommentId: comment.parentId ?? '',
        parentAuthorId: parent?.userId ?? '',
        content: comment.content,
        mentions: mentionsOf(comment.content),
        count: BigInt(counted.count),
        countVersion: counted.version,
        createdAt: timestampFromDate(comment.createdAt),
      }, { actorUserId: comment.userId, requestId: caller.requestId });
      await this.approved(manager, caller, comment, TargetType.VIDEO);
    });
  }

  async approvePostComment(caller: SignedInCaller, postId: string, commentId: string): Promise<void> {
    const id = this.postId(postId);
    await this.transactions.run(async (manager) => {
      const post = await this.controls.lockPost(manager, id);
      if (!post) throw new NotFoundException(POST_NOT_FOUND);
      if (!moderatesPost(post.userId, caller.userId)) await this.refusePost(caller, id, POST_MODERATOR_ONLY);
      const comment = await this.requireComment(manager, 'post', id, commentId);
      if (!comment.held) return;
      await this.controls.approve(manager, 'post', comment.id);
      const change = await this.posts.countComment(manager, id);
      await this.events.add(manager, SocialEvents.CommentAdded, {
        commentId: comment.id,
        targetType: TargetType.POST,
        targetId: id,
        timelineId: '',
        ownerId: change.ownerId,
        userId: comment.userId,
        parentCommentId: '',
        parentAuthorId: '',
        content: comment.content,
        mentions: mentionsOf(comment.content),
        count: BigInt(change.count),
        countVersion: change.version,
        createdAt: timestampFromDate(comment.createdAt),
      }, { actorUserId: comment.userId, requestId: caller.requestId });
      await this.approved(manager, caller, comment, TargetType.POST);
    });
  }

  // ---- pinning --------------------------------------------------------------------------------

  async pinTimelineComment(caller: SignedInCaller, timelineId: string, commentId: string, pinned: boolean): Promise<void> {
    await this.requireTimelineModerator(caller, timelineId);
    await this.transactions.run((manager) => this.setPin(manager, 'timeline', timelineId.toLowerCase(), commentId, pinned));
  }

  async pinVideoComment(caller: SignedInCaller, videoId: string, commentId: string, pinned: boolean): Promise<void> {
    const { video } = await this.requireVideoModerator(caller, videoId);
    await this.transactions.run((manager) => this.setPin(manager, 'video', video.id, commentId, pinned));
  }

  async pinPostComment(caller: SignedInCaller, postId: string, commentId: string, pinned: boolean): Promise<void> {
    const id = this.postId(postId);
    await this.transactions.run(async (manager) => {
      const post = await this.controls.lockPost(manager, id);
      if (!post) throw new NotFoundException(POST_NOT_FOUND);
      if (!moderatesPost(post.userId, caller.userId)) await this.refusePost(caller, id, POST_MODERATOR_ONLY);
      await this.setPin(manager, 'post', id, commentId, pinned);
    });
  }

  // ---- deleting -------------------------------------------------------------------------------

  /** Its author, or a moderator of the timeline, deletes a comment on the timeline. */
  async deleteTimelineComment(caller: SignedInCaller, timelineId: string, commentId: string): Promise<void> {
    const answer = await requireVisibleTimeline(this.access, timelineId, caller.userId);
    await this.transactions.run(async (manager) => {
      const comment = await this.requireComment(manager, 'timeline', timelineId.toLowerCase(), commentId);
      if (comment.userId !== caller.userId && !moderatesTimeline(answer)) throw new ForbiddenException(OWN_COMMENTS_ONLY);
      await this.controls.delete(manager, 'timeline', comment.id);
      // A held comment was never counted nor announced.
      if (!comment.held) {
        await this.events.add(
          manager,
          SocialEvents.TimelineCommentDeleted,
          { commentId: comment.id, timelineId: comment.targetId, ...(await recountTimelineComments(manager, comment.targetId)) },
          { actorUserId: caller.userId, requestId: caller.requestId },
        );
      }
    });
  }

  /** Its author, or the post's author, deletes a comment on a post. */
  async deletePostComment(caller: SignedInCaller, postId: string, commentId: string): Promise<void> {
    const id = this.postId(postId);
    await this.transactions.run(async (manager) => {
      const post = await this.controls.lockPost(manager, id);
      if (!post) throw new NotFoundException(POST_NOT_FOUND);
      const comment = await this.requireComment(manager, 'post', id, commentId);
      if (comment.userId !== caller.userId && !moderatesPost(post.userId, caller.userId)) await this.refusePost(caller, id, OWN_COMMENTS_ONLY);
      await this.controls.delete(manager, 'post', comment.id);
      if (comment.held) return;
      const change = await this.posts.countComment(manager, id, -1);
      await this.events.add(manager, SocialEvents.CommentDeleted, {
        commentId: comment.id,
        targetType: TargetType.POST,
        targetId: id,
        timelineId: '',
        userId: comment.userId,
        parentCommentId: '',
        count: BigInt(change.count),
        countVersion: change.version,
      }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
  }

  // ---- helpers --------------------------------------------------------------------------------

  private async settingsFor(item: ControlledItem, caller: Caller, moderator: boolean, ownerId: string): Promise<CommentSettingsDto> {
    const rules = await this.controls.rules(item);
    const follower = caller.userId && !moderator && rules.whoMayComment === 'followers' ? (await this.controls.commenter(caller.userId, ownerId)).follower : false;
    const refusal = refusalOf(rules, { moderator, follower });
    return mapCommentSettings(rules, { signedIn: caller.userId !== undefined, moderator, refusal }, moderator ? await this.controls.heldCount(item) : null);
  }

  private async heldPage(item: ControlledItem, query: PageQueryDto, after: ReturnType<typeof decodeCursor> | undefined): Promise<Page<HeldCommentDto>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.controls.held(item, limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapHeldComment), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  private async setPin(manager: EntityManager, kind: CommentKind, targetId: string, commentId: string, pinned: boolean): Promise<void> {
    const comment = await this.requireComment(manager, kind, targetId, commentId);
    if (!pinned) return this.controls.unpin(manager, kind, comment.id);
    if (comment.held) throw new ConflictException(APPROVE_BEFORE_PINNING);
    if (comment.parentId) throw new BadRequestException(REPLIES_NOT_PINNED);
    await this.controls.pin(manager, kind, targetId, comment.id);
  }

  /** Its author hears that the comment was approved. */
  private async approved(manager: EntityManager, caller: SignedInCaller, comment: ControlledComment, targetType: TargetType): Promise<void> {
    await this.events.add(manager, SocialEvents.CommentApproved, {
      commentId: comment.id,
      targetType,
      targetId: comment.targetId,
      timelineId: comment.timelineId ?? '',
      userId: comment.userId,
      approvedBy: caller.userId,
      at: timestampFromDate(new Date()),
    }, { actorUserId: caller.userId, requestId: caller.requestId });
  }

  private async requireComment(manager: EntityManager, kind: CommentKind, targetId: string, commentId: string): Promise<ControlledComment> {
    const comment = isUuid(commentId) ? await this.controls.lock(manager, kind, targetId, commentId.toLowerCase()) : null;
    if (!comment) throw new NotFoundException(COMMENT_NOT_FOUND);
    return comment;
  }

  private async requireTimelineModerator(caller: Caller, timelineId: string): Promise<TimelineAccessAnswer> {
    const answer = await requireVisibleTimeline(this.access, timelineId, caller.userId);
    if (!moderatesTimeline(answer)) throw new ForbiddenException(TIMELINE_MODERATORS_ONLY);
    return answer;
  }

  private async requireVideoModerator(caller: Caller, videoId: string) {
    const found = await this.videos.requireVisible(this.access, videoId, caller.userId);
    if (!moderatesTimeline(found.access)) throw new ForbiddenException(TIMELINE_MODERATORS_ONLY);
    return found;
  }

  private postId(rawId: string): string {
    if (!isUuid(rawId)) throw new NotFoundException(POST_NOT_FOUND);
    return rawId.toLowerCase();
  }

  /** The post, when the caller may see it (404 otherwise, the same as for none). */
  private async requirePost(rawId: string, callerId: string | undefined): Promise<{ id: string; author: string }> {
    const id = this.postId(rawId);
    const author = await this.controls.postAuthor(id, callerId);
    if (!author) throw new NotFoundException(POST_NOT_FOUND);
    return { id, author };
  }

  /** Refuses a change to the post: 404 to someone the post is absent to (as for a read), else 403 with `message`. */
  private async refusePost(caller: Caller, postId: string, message: string): Promise<never> {
    if (!(await this.controls.postAuthor(postId, caller.userId))) throw new NotFoundException(POST_NOT_FOUND);
    throw new ForbiddenException(message);
  }

  private async requirePostModerator(caller: Caller, rawId: string): Promise<{ id: string; author: string }> {
    const post = await this.requirePost(rawId, caller.userId);
    if (!moderatesPost(post.author, caller.userId)) throw new ForbiddenException(POST_MODERATOR_ONLY);
    return post;
  }
}

const rulesOf = (dto: UpdateCommentSettingsDto) => ({
  whoMayComment: dto.whoMayComment,
  holdAll: dto.holdAll ?? false,
  heldWords: normalizeWords(dto.heldWords ?? []),
  holdNewAccountsDays: dto.holdNewAccountsDays ?? null,
});
