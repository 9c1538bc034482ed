import { on } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import { forgetTimelineActivities } from '../activity/activity-recorder.js';
import { CollectionRepository } from '../collections/collection.repository.js';
import { forgetFeedTimeline } from '../feed/feed-timeline-events.js';
import { isUuid } from '../ids.js';
import { forgetTimelineVideos } from '../videos/video-events.js';

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
    const timelineId = timeline.timelineId.toLowerCase();
    await forgetFeedTimeline(manager, timelineId);
    // After the feed lock forgetFeedTimeline took: the order an add to a collection takes them in.
    await new CollectionRepository(manager.connection).forgetTimeline(manager, timelineId);
    await manager.query('DELETE FROM timeline_comments WHERE timeline_id = $1', [timelineId]);
    await forgetTimelineVideos(manager, timelineId);
    await forgetTimelineActivities(manager, timelineId);
    // Reaction rows before the counter row: toggles take them in that order too.
    await manager.query('DELETE FROM timeline_likes WHERE timeline_id = $1', [timelineId]);
    await manager.query('DELETE FROM timeline_bookmarks WHERE timeline_id = $1', [timelineId]);
    await manager.query('DELETE FROM timeline_reactions WHERE timeline_id = $1', [timelineId]);
  }),
];
