import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { Caller, EventWriter, SignedInCaller, TimelineAccess } from '@timeliner/platform';
import { SocialEvents, TargetType } from '@timeliner/proto';
import { isUuid } from '../ids.js';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, type PageQueryDto } from '../pagination/cursor.js';
import { mentionsOf } from '../posts/post-text.js';
import { storedNameOf } from '../users/user-names.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import { VIDEO_NOT_FOUND, type VideoRepository, type VideoRow } from '../videos/video.repository.js';
import type { VideoCommentRepository, VideoCommentRow } from './video-comment.repository.js';
import type { CreateVideoCommentDto, CreateVideoReplyDto, VideoCommentDto } from './video-comment.dto.js';

export const COMMENT_NOT_FOUND = 'Comment not found';

export const mapVideoComment = (row: VideoCommentRow, replies: VideoCommentDto[] = []): VideoCommentDto => {
  const user = mapUserSummary(row.userId, row.author, row.userName);
  return {
    id: row.id,
    videoId: row.videoId,
    timelineId: row.timelineId,
    parentId: row.parentId,
    content: row.content,
    userId: row.userId,
    userName: user.displayName,
    createdAt: row.createdAt.toISOString(),
    user,
    replies,
    repliesCount: row.repliesCount,
    likesCount: row.likesCount,
  };
};

/**
 * Comments on single videos and replies to them (one level deep). Whoever may see the video's
 * timeline reads them; signed in, they comment and reply; only authors delete their own. The
 * timeline of a comment is always the one the videos read model knows, never the client's.
 */
export class VideoCommentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly videos: VideoRepository,
    private readonly comments: VideoCommentRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  async list(caller: Caller, videoId: string, query: PageQueryDto): Promise<Page<VideoCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const { video } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.comments.topLevel(video.id, limit + 1, after);
    const items = rows.slice(0, limit);
    const replies = await this.comments.repliesOf(video.id, items.map((c) => c.id));
    const byParent = new Map<string, VideoCommentDto[]>();
    for (const reply of replies) byParent.set(reply.parentId!, [...(byParent.get(reply.parentId!) ?? []), mapVideoComment(reply)]);
    const last = items.at(-1);
    return {
      items: items.map((c) => mapVideoComment(c, byParent.get(c.id) ?? [])),
      ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}),
    };
  }

  async create(caller: SignedInCaller, videoId: string, dto: CreateVideoCommentDto): Promise<VideoCommentDto> {
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    if (dto.timelineId !== undefined && dto.timelineId !== null && dto.timelineId.toLowerCase() !== video.timelineId) {
      throw new BadRequestException("timelineId must be the video's timeline");
    }
    return this.write(caller, video.id, access.ownerId, async (_manager, locked) => ({ parent: null, timelineId: locked.timelineId }), dto.content);
  }

  async reply(caller: SignedInCaller, videoId: string, commentId: string, dto: CreateVideoReplyDto): Promise<VideoCommentDto> {
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    if (!isUuid(commentId)) throw new NotFoundException(COMMENT_NOT_FOUND);
    return this.write(caller, video.id, access.ownerId, async (manager, locked) => {
      const target = await this.comments.find(manager, video.id, commentId.toLowerCase());
      if (!target) throw new NotFoundException(COMMENT_NOT_FOUND);
      // One level of replies: answering a reply joins its thread.
      const parent = target.parentId ? await this.comments.find(manager, video.id, target.parentId) : target;
      if (!parent) throw new NotFoundException(COMMENT_NOT_FOUND);
      return { parent, timelineId: locked.timelineId };
    }, dto.content);
  }

  async delete(caller: SignedInCaller, videoId: string, commentId: string): Promise<void> {
    const { video } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    if (!isUuid(commentId)) throw new NotFoundException(COMMENT_NOT_FOUND);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.videos.find(video.id, manager, true))) throw new NotFoundException(VIDEO_NOT_FOUND);
      const comment = await this.comments.find(manager, video.id, commentId.toLowerCase());
      if (!comment) throw new NotFoundException(COMMENT_NOT_FOUND);
      if (comment.userId !== caller.userId) throw new ForbiddenException('You can only delete your own comments');
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
    this.events.committed();
  }

  /**
   * Writes a comment or reply with the video row held, so a deletion of the video or of the
   * parent cannot interleave, and announces it with the video's new comment count.
   */
  private async write(
    caller: SignedInCaller,
    videoId: string,
    ownerId: string,
    place: (manager: EntityManager, video: VideoRow) => Promise<{ parent: VideoCommentRow | null; timelineId: string }>,
    content: string,
  ): Promise<VideoCommentDto> {
    const row = await this.dataSource.transaction(async (manager) => {
      const locked = await this.videos.find(videoId, manager, true);
      if (!locked) throw new NotFoundException(VIDEO_NOT_FOUND);
      const { parent, timelineId } = await place(manager, locked);
      const inserted = await this.comments.insert(manager, {
        id: randomUUID(),
        videoId,
        timelineId,
        parentId: parent?.id ?? null,
        userId: caller.userId,
        userName: await storedNameOf(manager, caller.userId),
        content,
      });
      const counted = await this.comments.count(manager, videoId, 1);
      await this.events.add(manager, SocialEvents.CommentAdded, {
        commentId: inserted.id,
        targetType: TargetType.VIDEO,
        targetId: videoId,
        timelineId,
        ownerId: ownerId.toLowerCase(),
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
    this.events.committed();
    return mapVideoComment(row);
  }
}
