import { on } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import { isUuid } from '../ids.js';

/**
 * What this service keeps about timelines follows their life in the timelines service: a deleted
 * timeline's comments go with it (no per-comment events: the timeline and its counters are gone).
 */
export const timelineEventHandlers = [
  on(TimelinesEvents.TimelineDeleted, async (timeline, _meta, manager) => {
    if (!isUuid(timeline.timelineId)) return;
    await manager.query('DELETE FROM timeline_comments WHERE timeline_id = $1', [timeline.timelineId.toLowerCase()]);
  }),
];
