import { NotFoundException } from '@nestjs/common';
import { requireVisible, TIMELINE_NOT_FOUND, type TimelineAccess, type TimelineAccessAnswer, type TimelineAccessOptions } from '@timeliner/platform';
import { Visibility } from '@timeliner/proto';

/**
 * The timeline if the caller may see it; 404 otherwise, signed in or not, whether it is private
 * or does not exist: what this service keeps about a timeline (comments, ...) is as visible as
 * the timeline itself. Reads of it in context (its comment lists) pass `inContext`, so staff read
 * those of a timeline the moderators took out too (read-only: writes never pass it).
 */
export function requireVisibleTimeline(access: TimelineAccess, timelineId: string, userId: string | undefined, options?: TimelineAccessOptions): Promise<TimelineAccessAnswer> {
  return requireVisible(access, timelineId, userId, () => new NotFoundException(TIMELINE_NOT_FOUND), options);
}

const VISIBILITY = { private: Visibility.PRIVATE, unlisted: Visibility.UNLISTED, public: Visibility.PUBLIC } as const;

/**
 * What an event about something on a timeline says of the timeline, from the timelines service's
 * answer to the access check: its consumers then need no copy of the timeline to act.
 */
export function announcedTimeline(answer: TimelineAccessAnswer): { ownerId: string; timelineVisibility: Visibility; timelineTitle?: string } {
  return {
    ownerId: answer.ownerId.toLowerCase(),
    timelineVisibility: answer.visibility ? VISIBILITY[answer.visibility] : Visibility.UNSPECIFIED,
    ...(answer.title !== undefined ? { timelineTitle: answer.title } : {}),
  };
}
