import type { TimelineAccess, TimelineAccessAnswer, TimelineAccessOptions } from '@timeliner/platform';
import type { PersonFilterRepository } from './person-filter.repository.js';

/**
 * The timelines port as this service's timeline routes use it (comments, likes, bookmarks, a
 * video's likes and comments), with blocks applied: a timeline whose owner and the caller have
 * blocked each other (either way) is as absent to the caller as a private one (404), so neither
 * sees, comments on nor likes the other's timelines. Staff reading in context a timeline the
 * moderators took out see it whatever blocks say, as on its page (the timelines service's rule).
 */
export class BlockedTimelineAccess implements TimelineAccess {
  constructor(
    private readonly inner: TimelineAccess,
    private readonly filters: PersonFilterRepository,
  ) {}

  async check(timelineId: string, userId: string | undefined, options?: TimelineAccessOptions): Promise<TimelineAccessAnswer> {
    const answer = await this.inner.check(timelineId, userId, options);
    if (!answer.canView || !userId || !answer.ownerId) return answer;
    if (answer.removedByModerators && answer.role !== 'owner') return answer;
    if (!(await this.filters.blockedEitherWay(userId.toLowerCase(), answer.ownerId.toLowerCase()))) return answer;
    return { canView: false, canEdit: false, role: null, ownerId: answer.ownerId };
  }
}
