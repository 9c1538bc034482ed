import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { type Caller, decodeCursor, encodeCursor, type EventWriter, isUuid, type Page, type SignedInCaller, type TimelineAccess, type TimelineAccessAnswer, type Transactions } from '@timeliner/platform';
import { announcedTimeline } from '../access/timeline-access.js';
import { SocialEvents, TargetType } from '@timeliner/proto';
import { DEFAULT_PAGE_SIZE, type PageQueryDto } from '../pagination/page-queries.js';
import { mentionsOf } from '../posts/post-text.js';
import { storedNameOf } from '../users/user-names.js';
import { admitComment } from '../comment-rules/comment-gate.js';
import { heldCommentWaiting } from '../comment-rules/comment-announcements.js';
import { moderatesTimeline } from '../comment-rules/comment-moderators.js';
import { VIDEO_NOT_FOUND, type VideoRepository, type VideoRow } from '../videos/video.repository.js';
import type { VideoCommentRepository, VideoCommentRow } from './video-comment.repository.js';
import { type CreateVideoCommentDto, type CreateVideoReplyDto, mapVideoComment, type VideoCommentDto } from './video-comment.dto.js';

export const COMMENT_NOT_FOUND = 'Comment not found';

/** Replies shown with each comment of a list; the others come a page at a time from the replies route. */
export const REPLIES_PREVIEW = 3;

/**
 * Comments on single videos and replies to them (one level deep). Whoever may see the video's
 * timeline reads them; signed in, they comment and reply (as its comment controls allow: see
 * comment-controls/); authors delete their own, the timeline's owner and editors any. The
 * timeline of a comment is always the one the videos read model knows, never the client's.
 * Staff read the comments and replies of a video or timeline the moderators took out (from the
 * desk), and only read: every write asks without `inContext`, which such an item refuses them.
 */
export class VideoCommentService {
  constructor(
    private readonly transactions: Transactions,
    private readonly videos: VideoRepository,
    private readonly comments: VideoCommentRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  async list(caller: Caller, videoId: string, query: PageQueryDto): Promise<Page<VideoCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId, { inContext: true });
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const reader = { userId: caller.userId, moderator: moderatesTimeline(access) };
    const rows = await this.comments.topLevel(video.id, limit + 1, after, reader);
    // The pinned comment comes first, on the first page only (the pages leave it out).
    const pinned = after ? null : await this.comments.pinned(video.id);
    const items = [...(pinned ? [pinned] : []), ...rows.slice(0, limit)];
    // A page of replies per comment at most (one more tells whether there are others); the rest through replies().
    const replies = await this.comments.firstReplies(video.id, items.map((c) => c.id), REPLIES_PREVIEW + 1, reader);
    const byParent = new Map<string, VideoCommentRow[]>();
    for (const reply of replies) byParent.set(reply.parentId!, [...(byParent.get(reply.parentId!) ?? []), reply]);
    const last = rows.slice(0, limit).at(-1);
    return {
      items: items.map((c) => {
        const first = byParent.get(c.id) ?? [];
        const shown = first.slice(0, REPLIES_PREVIEW);
        return mapVideoComment(c, shown.map((r) => mapVideoComment(r)), first.length > REPLIES_PREVIEW ? encodeCursor(shown.at(-1)!.key) : null);
      }),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}),
    };
  }

  /** The replies to one comment, oldest first, a page at a time (the list shows the first REPLIES_PREVIEW and a cursor to these). */
  async replies(caller: Caller, videoId: string, commentId: string, query: PageQueryDto): Promise<Page<VideoCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId, { inContext: true });
    const reader = { userId: caller.userId, moderator: moderatesTimeline(access) };
    const parent = isUuid(commentId) ? await this.comments.visibleTopLevel(video.id, commentId.toLowerCase(), reader) : null;
    if (!parent) throw new NotFoundException(COMMENT_NOT_FOUND);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.comments.replyPage(video.id, parent.id, limit + 1, after, reader);
    const page = rows.slice(0, limit);
    return {
      items: page.map((r) => mapVideoComment(r)),
      ...(rows.length > limit ? { nextCursor: encodeCursor(page.at(-1)!.key) } : {}),
    };
  }

  async create(caller: SignedInCaller, videoId: string, dto: CreateVideoCommentDto): Promise<VideoCommentDto> {
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    if (dto.timelineId !== undefined && dto.timelineId !== null && dto.timelineId.toLowerCase() !== video.timelineId) {
      throw new BadRequestException("timelineId must be the video's timeline");
    }
    return this.write(caller, video.id, access, async (_manager, locked) => ({ parent: null, timelineId: locked.timelineId }), dto.content);
  }

  async reply(caller: SignedInCaller, videoId: string, commentId: string, dto: CreateVideoReplyDto): Promise<VideoCommentDto> {
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    if (!isUuid(commentId)) throw new NotFoundException(COMMENT_NOT_FOUND);
    return this.write(caller, video.id, access, async (manager, locked) => {
      const target = await this.comments.find(manager, video.id, commentId.toLowerCase());
      if (!target) throw new NotFoundException(COMMENT_NOT_FOUND);
      // One level of replies: answering a reply joins its thread.
      const parent = target.parentId ? await this.comments.find(manager, video.id, target.parentId) : target;
      if (!parent) throw new NotFoundException(COMMENT_NOT_FOUND);
      return { parent, timelineId: locked.timelineId };
    }, dto.content);
  }

  async delete(caller: SignedInCaller, videoId: string, commentId: string): Promise<void> {
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    if (!isUuid(commentId)) throw new NotFoundException(COMMENT_NOT_FOUND);
    await this.transactions.run(async (manager) => {
      if (!(await this.videos.find(video.id, manager, true))) throw new NotFoundException(VIDEO_NOT_FOUND);
      const comment = await this.comments.find(manager, video.id, commentId.toLowerCase());
      if (!comment) throw new NotFoundException(COMMENT_NOT_FOUND);
      // Its author, or a moderator of the timeline (owner, editor) on their own item.
      if (comment.userId !== caller.userId && !moderatesTimeline(access)) throw new ForbiddenException('You can only delete your own comments');
      const removed = await this.comments.delete(manager, comment);
      const counted = await this.comments.count(manager, video.id, -removed);
      await this.events.add(manager, SocialEvents.CommentDeleted, {
        commentId: comment.id,
        targetType: TargetType.VIDEO,
        targetId: video.id,
        timelineId: comment.timelineId,
        userId: comment.userId,
        parentCommentId: comment.parentId ?? '',
        count: BigInt(counted.count),
        countVersion: counted.version,
      }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
  }

  /**
   * Writes a comment or reply with the video row held, so a deletion of the video or of the
   * parent cannot interleave, and announces it with the video's new comment count.
   */
  private async write(
    caller: SignedInCaller,
    videoId: string,
    access: TimelineAccessAnswer,
    place: (manager: EntityManager, video: VideoRow) => Promise<{ parent: VideoCommentRow | null; timelineId: string }>,
    content: string,
  ): Promise<VideoCommentDto> {
    const row = await this.transactions.run(async (manager) => {
      const locked = await this.videos.find(videoId, manager, true);
      if (!locked) throw new NotFoundException(VIDEO_NOT_FOUND);
      const { parent, timelineId } = await place(manager, locked);
      const moderator = moderatesTimeline(access);
      const admission = await admitComment(manager, { type: 'timeline', id: timelineId }, { userId: caller.userId, moderator, ownerId: access.ownerId.toLowerCase() }, content);
      if (admission.refused !== null) throw new ForbiddenException(admission.refused);
      const inserted = await this.comments.insert(manager, {
        id: randomUUID(),
        videoId,
        timelineId,
        parentId: parent?.id ?? null,
        userId: caller.userId,
        userName: await storedNameOf(manager, caller.userId),
        content,
        held: admission.held,
      });
      // A held comment is counted and announced when it is approved; the owner hears it waits.
      if (admission.held) {
        await heldCommentWaiting(manager, this.events, { type: 'timeline', id: timelineId }, access.ownerId.toLowerCase(), caller, inserted.id, access.title);
        return inserted;
      }
      const counted = await this.comments.count(manager, videoId, 1);
      await this.events.add(manager, SocialEvents.CommentAdded, {
        commentId: inserted.id,
        targetType: TargetType.VIDEO,
        targetId: videoId,
        timelineId,
        ...announcedTimeline(access),
        userId: caller.userId,
        parentCommentId: parent?.id ?? '',
        parentAuthorId: parent?.userId ?? '',
        content,
        mentions: mentionsOf(content),
        count: BigInt(counted.count),
        countVersion: counted.version,
        createdAt: timestampFromDate(inserted.createdAt),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return inserted;
    });
    return mapVideoComment(row);
  }
}
