import type { TimelineAccessAnswer } from '@timeliner/platform';

/** The moderators of a timeline's comments (and its videos'): its owner and editors. */
export const moderatesTimeline = (answer: TimelineAccessAnswer): boolean => answer.canView && (answer.role === 'owner' || answer.role === 'editor');

/** The moderator of a post's comments: its author. */
export const moderatesPost = (authorId: string, userId: string | undefined): boolean => userId !== undefined && authorId === userId;
