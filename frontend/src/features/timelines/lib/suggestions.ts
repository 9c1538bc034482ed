import { pluralize } from '../../../lib/format';
import type { Timeline } from '../api/get-timeline';
import type { TimelineAnalytics } from '../api/get-timeline-analytics';
import { completionPercent, formatPeakTime } from './analytics-format';

/** What a suggestion's button does; the page decides how. */
export type SuggestionAction = 'upload' | 'settings' | 'invite';

export interface Suggestion {
  id: string;
  title: string;
  description: string;
  action?: SuggestionAction;
}

export interface SuggestionInput {
  timeline: Pick<Timeline, 'description' | 'status' | 'visibility' | 'videoCount' | 'commentsCount'>;
  /** The caller owns the timeline (and so can change its details, visibility and status). */
  isOwner: boolean;
  /** Undefined while unknown: no suggestion is made from figures not yet loaded. */
  analytics?: TimelineAnalytics;
  /** Collaborators besides the owner; undefined while unknown. */
  teamSize?: number;
  /** Invitations still waiting for an answer; undefined while unknown. */
  pendingInvitations?: number;
}

/** A completion under this percentage suggests viewers leave early. */
export const LOW_COMPLETION_PERCENT = 50;
/** Views enough to expect at least one share. */
export const SHARE_EXPECTED_AFTER_VIEWS = 10;

/**
 * Next steps for a timeline, worked out from its own details, team and analytics, most useful
 * first. Every figure quoted comes from the input; nothing is invented.
 */
export function computeSuggestions({ timeline, isOwner, analytics, teamSize, pendingInvitations }: SuggestionInput): Suggestion[] {
  const suggestions: Suggestion[] = [];
  const published = timeline.status === 'published';

  if (timeline.videoCount === 0) {
    suggestions.push({
      id: 'upload-first-video',
      title: 'No videos yet: upload your first video',
      description: 'A timeline comes alive with its videos. Add your first one to get started.',
      action: 'upload',
    });
  }

  if (isOwner && !timeline.description?.trim()) {
    suggestions.push({
      id: 'add-description',
      title: 'Add a description',
      description: 'Tell viewers what this timeline is about. It appears wherever the timeline is listed.',
      action: 'settings',
    });
  }

  if (isOwner && !published && timeline.videoCount > 0) {
    suggestions.push({
      id: 'publish',
      title: 'Publish your timeline',
      description: `It has ${pluralize(timeline.videoCount, 'video')} but is not published yet. Publish it when it is ready for viewers.`,
      action: 'settings',
    });
  }

  if (isOwner && published && timeline.visibility === 'private') {
    suggestions.push({
      id: 'choose-visibility',
      title: 'Choose who can watch',
      description: 'It is published but private, so only you and your collaborators can watch it. Make it public or unlisted to share it.',
      action: 'settings',
    });
  }

  if (teamSize === 0 && pendingInvitations === 0) {
    suggestions.push({
      id: 'invite-editor',
      title: 'Invite an editor',
      description: 'Work faster with a collaborator who can upload and edit videos.',
      action: 'invite',
    });
  }

  if (analytics) {
    if (!analytics.hasData && published && timeline.visibility !== 'private') {
      suggestions.push({
        id: 'first-views',
        title: 'Share your timeline',
        description: 'No one has watched it yet. Send its link to the people you made it for.',
        ...(isOwner ? { action: 'settings' as const } : {}),
      });
    }
    if (analytics.hasData && analytics.totalViews > 0 && completionPercent(analytics) < LOW_COMPLETION_PERCENT) {
      suggestions.push({
        id: 'completion',
        title: 'Keep viewers watching',
        description: `Only ${completionPercent(analytics)}% of views reach the end. A shorter timeline or a stronger first video may help.`,
      });
    }
    if (analytics.totalViews >= SHARE_EXPECTED_AFTER_VIEWS && analytics.shares === 0) {
      suggestions.push({
        id: 'encourage-sharing',
        title: 'Ask viewers to share',
        description: `${pluralize(analytics.totalViews, 'view')} and no shares yet. A call to share in your description or first video can help it travel.`,
      });
    }
    if (analytics.hasData && analytics.peakViewingTime) {
      suggestions.push({
        id: 'peak-time',
        title: 'Add videos when your audience watches',
        description: `Most views come around ${formatPeakTime(analytics.peakViewingTime)}. New videos added shortly before then reach more people.`,
      });
    }
  }

  if (timeline.videoCount > 0 && timeline.commentsCount === 0) {
    suggestions.push({
      id: 'first-comment',
      title: 'Start the conversation',
      description: 'Leave a comment at a moment in the timeline to guide your team or your viewers.',
    });
  }

  return suggestions;
}
