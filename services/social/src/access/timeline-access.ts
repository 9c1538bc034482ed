import { NotFoundException } from '@nestjs/common';
import { requireVisible, TIMELINE_NOT_FOUND, type TimelineAccess, type TimelineAccessAnswer } from '@timeliner/platform';

/**
 * The timeline if the caller may see it; 404 otherwise, signed in or not, whether it is private
 * or does not exist: what this service keeps about a timeline (comments, ...) is as visible as
 * the timeline itself.
 */
export function requireVisibleTimeline(access: TimelineAccess, timelineId: string, userId: string | undefined): Promise<TimelineAccessAnswer> {
  return requireVisible(access, timelineId, userId, () => new NotFoundException(TIMELINE_NOT_FOUND));
}
