import { type Timestamp, timestampDate } from '@bufbuild/protobuf/wkt';
import { type EventBus, idsAfter, type RebuildableReadModel, replayedTimelines } from '@timeliner/platform';
import type { TimelineSnapshot } from '@timeliner/proto';
import { applyTimelineSnapshot, forgetTimeline, timelineRow } from './timeline-events.js';

/** When a replayed timeline's engagement is counted: its last activity (a live snapshot's own time is not known). */
const replayedAt = (at: Timestamp | undefined): string => {
  const date = at ? timestampDate(at) : new Date();
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
};

/** Search's timelines rebuilt from the timelines service's replay (`read-model rebuild search --model timelines`). */
export function timelinesReadModel(bus: EventBus): RebuildableReadModel<TimelineSnapshot> {
  return {
    name: 'timelines',
    ...replayedTimelines(bus),
    async apply(manager, snapshot) {
      const at = replayedAt(snapshot.lastActivityAt);
      const row = timelineRow(snapshot, at);
      if (row) await applyTimelineSnapshot(manager, row, at);
    },
    localIds: (manager, afterId, limit) => idsAfter(manager, 'timelines', afterId, limit),
    remove: (manager, id) => forgetTimeline(manager, id),
  };
}
