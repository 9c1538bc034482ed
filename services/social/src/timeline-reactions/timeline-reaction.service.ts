import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Caller, EventWriter, SignedInCaller, TimelineAccess, Transactions } from '@timeliner/platform';
import { Reaction, SocialEvents, TargetType } from '@timeliner/proto';
import { announcedTimeline, requireVisibleTimeline } from '../access/timeline-access.js';
import { recordActivity, removeActivity } from '../activity/activity-recorder.js';
import type { ActivityType } from '../activity/activity.entity.js';
import type { TimelineReactionKind, TimelineReactionRepository } from './timeline-reaction.repository.js';
import type { TimelineBookmarkStatusDto, TimelineLikeStatusDto } from './timeline-reaction.dto.js';

const REACTION: Record<TimelineReactionKind, Reaction> = { like: Reaction.LIKE, bookmark: Reaction.BOOKMARK };
const ACTIVITY: Record<TimelineReactionKind, ActivityType> = { like: 'liked_timeline', bookmark: 'bookmarked_timeline' };

/**
 * Likes and bookmarks of whole timelines. Whoever may see a timeline may read its like count and
 * their own state, and, signed in, like or bookmark it; a timeline they may not see is not found.
 * Toggles are idempotent: liking twice is one like, and only a real change is announced.
 */
export class TimelineReactionService {
  constructor(
    private readonly transactions: Transactions,
    private readonly reactions: TimelineReactionRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  async liked(caller: Caller, timelineId: string): Promise<TimelineLikeStatusDto> {
    await requireVisibleTimeline(this.access, timelineId, caller.userId);
    const { active, count } = await this.reactions.state('like', timelineId.toLowerCase(), caller.userId);
    return { isLiked: active, liked: active, likesCount: count };
  }

  async bookmarked(caller: Caller, timelineId: string): Promise<TimelineBookmarkStatusDto> {
    await requireVisibleTimeline(this.access, timelineId, caller.userId);
    const { active } = await this.reactions.state('bookmark', timelineId.toLowerCase(), caller.userId);
    return { isBookmarked: active, bookmarked: active };
  }

  async setLike(caller: SignedInCaller, timelineId: string, active: boolean): Promise<TimelineLikeStatusDto> {
    const count = await this.set(caller, 'like', timelineId, active);
    return { isLiked: active, liked: active, likesCount: count };
  }

  async setBookmark(caller: SignedInCaller, timelineId: string, active: boolean): Promise<TimelineBookmarkStatusDto> {
    await this.set(caller, 'bookmark', timelineId, active);
    return { isBookmarked: active, bookmarked: active };
  }

  /** Sets the caller's reaction; the count after it. */
  private async set(caller: SignedInCaller, kind: TimelineReactionKind, rawId: string, active: boolean): Promise<number> {
    const answer = await requireVisibleTimeline(this.access, rawId, caller.userId);
    const timelineId = rawId.toLowerCase();
    const change = await this.transactions.run(async (manager) => {
      const changed = await this.reactions.set(manager, kind, timelineId, caller.userId, active);
      if (!changed) return null;
      const eventId = await this.events.add(manager, SocialEvents.ReactionChanged, {
        targetType: TargetType.TIMELINE,
        targetId: timelineId,
        timelineId,
        ...announcedTimeline(answer),
        userId: caller.userId,
        reaction: REACTION[kind],
        active,
        count: BigInt(changed.count),
        countVersion: changed.version,
        at: timestampFromDate(new Date()),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      // The caller's activity, in the same transaction: liked_timeline / bookmarked_timeline, taken back with the reaction.
      if (active) await recordActivity(manager, { sourceEventId: eventId, userId: caller.userId, activityType: ACTIVITY[kind], targetType: 'timeline', targetId: timelineId });
      else await removeActivity(manager, caller.userId, ACTIVITY[kind], timelineId);
      return changed;
    });
    if (change) return change.count;
    return (await this.reactions.state(kind, timelineId, caller.userId)).count;
  }
}
