import type { TimelineAccessAnswer } from '@timeliner/platform';

/**
 * The moderators of a timeline's comments (and its videos'): its owner and editors; of one the
 * moderators took out, its owner alone (staff who are also its editors only read it, in context).
 */
export const moderatesTimeline = (answer: TimelineAccessAnswer): boolean =>
  answer.canView && (answer.role === 'owner' || (answer.role === 'editor' && !answer.removedByModerators));

/** The moderator of a post's comments: its author. */
export const moderatesPost = (authorId: string, userId: string | undefined): boolean => userId !== undefined && authorId === userId;
