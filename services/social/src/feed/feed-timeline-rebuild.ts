import { createHash } from 'node:crypto';
import { type EventBus, idsAfter, type RebuildableReadModel, replayedTimelines } from '@timeliner/platform';
import type { TimelineSnapshot } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { recordActivity } from '../activity/activity-recorder.js';
import { forYouListingChanged } from '../feed-index/listing-changed.js';
import { applyTimelineSnapshot, applyTimelineSnapshots, type FeedTimelineRow, feedTimelineRow } from './feed-timeline-events.js';

/**
 * The created_timeline activity of a timeline first heard of by a rebuild: keyed by the timeline
 * (not by an event), so running the rebuild again records it once.
 */
const activityKey = (timelineId: string): string => {
  const hex = createHash('sha256').update(`rebuild:created_timeline:${timelineId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The feed's timelines rebuilt from the timelines service's replay (`read-model rebuild social
 * --model timelines`): each page applied at once as the live snapshots are (the highest revision wins; a
 * timeline new here records its creator's created_timeline activity), and a timeline the
 * timelines service no longer has goes with everything kept about it, as its deletion would:
 * `forgetTimeline` is the TimelineDeleted handler's (timelines/timeline-events.ts).
 */
export function feedTimelinesReadModel(bus: EventBus, forgetTimeline: (manager: EntityManager, timelineId: string) => Promise<void>): RebuildableReadModel<TimelineSnapshot> {
  return {
    name: 'timelines',
    ...replayedTimelines(bus),
    async apply(manager, snapshot) {
      const row = feedTimelineRow(snapshot, new Date().toISOString());
      if (!row) return;
      const applied = await applyTimelineSnapshot(manager, row);
      if (applied === 'inserted') {
        await recordActivity(manager, { sourceEventId: activityKey(row.id), userId: row.creatorId, activityType: 'created_timeline', targetType: 'timeline', targetId: row.id, createdAt: row.createdAt });
      }
    },
    async applyPage(manager, snapshots) {
      const now = new Date().toISOString();
      const rows = snapshots.map((snapshot) => feedTimelineRow(snapshot, now)).filter((row): row is FeedTimelineRow => row !== null);
      for (const { row, inserted } of await applyTimelineSnapshots(manager, rows)) {
        if (inserted) {
          await recordActivity(manager, { sourceEventId: activityKey(row.id), userId: row.creatorId, activityType: 'created_timeline', targetType: 'timeline', targetId: row.id, createdAt: row.createdAt });
        }
      }
    },
    localIds: (manager, afterId, limit) => idsAfter(manager, 'feed_timelines', afterId, limit),
    remove: (manager, id) => forgetTimeline(manager, id),
    // Timelines newly listed may rank in for-you.
    afterPage: forYouListingChanged,
  };
}
