import { isUuid, on } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { forgetTimelineActivities } from '../activity/activity-recorder.js';
import { CollectionRepository } from '../collections/collection.repository.js';
import { forgetFeedTimeline } from '../feed/feed-timeline-events.js';
import { TimelineCommentRepository } from '../timeline-comments/timeline-comment.repository.js';
import { TimelineReactionRepository } from '../timeline-reactions/timeline-reaction.repository.js';
import { VideoRepository } from '../videos/video.repository.js';

/**
 * What this service keeps about timelines follows their life in the timelines service: a deleted
 * timeline's comments, likes, bookmarks and videos (with their likes and comments) go with it (no
 * per-item events: the timeline and its counters are gone), it leaves every collection (their
 * counts go down), and every activity about it goes, and its feed row goes, for good (deleted_timelines: a snapshot arriving later
 * does not bring it back).
 */
export const timelineEventHandlers = [
  on(TimelinesEvents.TimelineDeleted, async (timeline, _meta, manager) => {
    if (!isUuid(timeline.timelineId)) return;
    await forgetTimeline(manager, timeline.timelineId.toLowerCase());
  }),
];

/** Everything this service keeps of a deleted timeline goes, for good (see above; also a read model rebuild's removal). */
export async function forgetTimeline(manager: EntityManager, timelineId: string): Promise<void> {
  await forgetFeedTimeline(manager, timelineId);
  // After the feed lock forgetFeedTimeline took: the order an add to a collection takes them in.
  await new CollectionRepository(manager.connection).forgetTimeline(manager, timelineId);
  await new TimelineCommentRepository(manager.connection).forgetTimeline(manager, timelineId);
  await new VideoRepository(manager.connection).forgetTimeline(manager, timelineId);
  await forgetTimelineActivities(manager, timelineId);
  await new TimelineReactionRepository(manager.connection).forgetTimeline(manager, timelineId);
}
