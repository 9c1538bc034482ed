import { ForbiddenException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Caller, SignedInCaller, TimelineAccess } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import { requireVisibleTimeline } from '../access/timeline-access.js';
import { recordActivity } from '../activity/activity-recorder.js';
import type { EventWriter } from '@timeliner/platform';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, type PageQueryDto } from '../pagination/cursor.js';
import { mentionsOf } from '../posts/post-text.js';
import { storedNameOf } from '../users/user-names.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import type { CommentRow, TimelineCommentRepository } from './timeline-comment.repository.js';
import type { CreateTimelineCommentDto, TimelineCommentDto } from './timeline-comment.dto.js';

export const mapTimelineComment = ({ comment, author }: CommentRow): TimelineCommentDto => {
  const user = mapUserSummary(comment.userId, author, comment.userName);
  return {
    id: comment.id,
    content: comment.content,
    timestamp: comment.timestamp,
    userId: comment.userId,
    userName: user.displayName,
    createdAt: comment.createdAt.toISOString(),
    user,
  };
};

/**
 * Comments on a whole timeline. Who may read or write them is the timelines service's call,
 * asked on every request: anyone who may see the timeline reads its comments (anonymous callers
 * too, for published public and unlisted timelines); anyone signed in who may see it comments.
 */
export class TimelineCommentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly comments: TimelineCommentRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  async list(caller: Caller, timelineId: string, query: PageQueryDto): Promise<Page<TimelineCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    await requireVisibleTimeline(this.access, timelineId, caller.userId);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.comments.page(timelineId.toLowerCase(), limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapTimelineComment), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  async create(caller: SignedInCaller, timelineId: string, dto: CreateTimelineCommentDto): Promise<TimelineCommentDto> {
    // The body may name its author (spec 001); it must be the caller, who is the author regardless.
    if (dto.userId !== undefined && dto.userId !== null && dto.userId.toLowerCase() !== caller.userId.toLowerCase()) {
      throw new ForbiddenException('You can only comment as yourself');
    }
    await requireVisibleTimeline(this.access, timelineId, caller.userId);
    const row = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.comments.insert(manager, {
        id: randomUUID(),
        timelineId: timelineId.toLowerCase(),
        userId: caller.userId,
        userName: await storedNameOf(manager, caller.userId),
        content: dto.content,
        timestamp: dto.timestamp ?? 0,
      });
      const eventId = await this.events.add(manager, SocialEvents.TimelineCommentAdded, {
        commentId: inserted.comment.id,
        timelineId: inserted.comment.timelineId,
        userId: inserted.comment.userId,
        createdAt: timestampFromDate(inserted.comment.createdAt),
        mentions: mentionsOf(inserted.comment.content),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      await recordActivity(manager, {
        sourceEventId: eventId, userId: caller.userId, activityType: 'commented_timeline', targetType: 'timeline', targetId: inserted.comment.timelineId,
        createdAt: inserted.comment.createdAt.toISOString(),
      });
      return inserted;
    });
    this.events.committed();
    return mapTimelineComment(row);
  }
}
