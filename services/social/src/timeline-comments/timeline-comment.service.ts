import { ForbiddenException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { type Caller, decodeCursor, encodeCursor, type Page, type SignedInCaller, type TimelineAccess, type Transactions } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import { announcedTimeline, requireVisibleTimeline } from '../access/timeline-access.js';
import { recordActivity } from '../activity/activity-recorder.js';
import type { EventWriter } from '@timeliner/platform';
import { DEFAULT_PAGE_SIZE, type PageQueryDto } from '../pagination/page-queries.js';
import { mentionsOf } from '../posts/post-text.js';
import { storedNameOf } from '../users/user-names.js';
import { admitComment } from '../comment-rules/comment-gate.js';
import { heldCommentWaiting } from '../comment-rules/comment-announcements.js';
import { moderatesTimeline } from '../comment-rules/comment-moderators.js';
import { recountTimelineComments } from '../comment-rules/timeline-comment-count.js';
import type { TimelineCommentRepository } from './timeline-comment.repository.js';
import { type CreateTimelineCommentDto, mapTimelineComment, type TimelineCommentDto } from './timeline-comment.dto.js';

/**
 * Comments on a whole timeline. Who may read or write them is the timelines service's call,
 * asked on every request: anyone who may see the timeline reads its comments (anonymous callers
 * too, for published public and unlisted timelines); anyone signed in who may see it comments.
 * Staff read the comments of a timeline the moderators took out (from the desk), and only read.
 */
export class TimelineCommentService {
  constructor(
    private readonly transactions: Transactions,
    private readonly comments: TimelineCommentRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  async list(caller: Caller, timelineId: string, query: PageQueryDto): Promise<Page<TimelineCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const answer = await requireVisibleTimeline(this.access, timelineId, caller.userId, { inContext: true });
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.comments.page(timelineId.toLowerCase(), limit + 1, after, { userId: caller.userId, moderator: moderatesTimeline(answer) });
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    // The pinned comment comes first, on the first page only (the pages leave it out).
    const pinned = after ? null : await this.comments.pinned(timelineId.toLowerCase());
    return { items: [...(pinned ? [pinned] : []), ...items].map(mapTimelineComment), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  async create(caller: SignedInCaller, timelineId: string, dto: CreateTimelineCommentDto): Promise<TimelineCommentDto> {
    // The body may name its author (spec 001); it must be the caller, who is the author regardless.
    if (dto.userId !== undefined && dto.userId !== null && dto.userId.toLowerCase() !== caller.userId.toLowerCase()) {
      throw new ForbiddenException('You can only comment as yourself');
    }
    const answer = await requireVisibleTimeline(this.access, timelineId, caller.userId);
    const row = await this.transactions.run(async (manager) => {
      const admission = await admitComment(manager, { type: 'timeline', id: timelineId.toLowerCase() }, { userId: caller.userId, moderator: moderatesTimeline(answer), ownerId: answer.ownerId.toLowerCase() }, dto.content);
      if (admission.refused !== null) throw new ForbiddenException(admission.refused);
      const inserted = await this.comments.insert(manager, {
        id: randomUUID(),
        timelineId: timelineId.toLowerCase(),
        userId: caller.userId,
        userName: await storedNameOf(manager, caller.userId),
        content: dto.content,
        timestamp: dto.timestamp ?? 0,
        held: admission.held,
        pinnedAt: null,
      });
      // A held comment is announced when it is approved: until then nobody else is told of it.
      if (admission.held) {
        await heldCommentWaiting(manager, this.events, { type: 'timeline', id: inserted.comment.timelineId }, answer.ownerId.toLowerCase(), caller, inserted.comment.id, answer.title);
        return inserted;
      }
      const eventId = await this.events.add(manager, SocialEvents.TimelineCommentAdded, {
        commentId: inserted.comment.id,
        timelineId: inserted.comment.timelineId,
        userId: inserted.comment.userId,
        createdAt: timestampFromDate(inserted.comment.createdAt),
        mentions: mentionsOf(inserted.comment.content),
        ...announcedTimeline(answer),
        ...(await recountTimelineComments(manager, inserted.comment.timelineId)),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      await recordActivity(manager, {
        sourceEventId: eventId, userId: caller.userId, activityType: 'commented_timeline', targetType: 'timeline', targetId: inserted.comment.timelineId,
        createdAt: inserted.comment.createdAt.toISOString(),
      });
      return inserted;
    });
    return mapTimelineComment(row);
  }
}
