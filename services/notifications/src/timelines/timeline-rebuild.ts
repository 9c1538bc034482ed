import { type EventBus, idsAfter, type RebuildableReadModel, replayedTimelines } from '@timeliner/platform';
import type { TimelineSnapshot } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';
import { applyTimelineSnapshot, applyTimelineSnapshots, forgetTimeline } from './timeline-events.js';

/**
 * The notifications service's timelines (owner, title, visibility: who may see what is told about
 * them) rebuilt from the timelines service's replay (`read-model rebuild notifications --model
 * timelines`): each page of snapshots applied at once as the live ones are (the highest revision wins, a deleted
 * timeline stays deleted, one made private takes its notifications from everyone outside it), and
 * a timeline the timelines service no longer has goes as its deletion would. Collaborators
 * (timeline_members) are not in the snapshots: they stay with the collaborator events.
 */
export function timelinesReadModel(bus: EventBus, notifier: Notifier): RebuildableReadModel<TimelineSnapshot> {
  return {
    name: 'timelines',
    ...replayedTimelines(bus),
    apply: (manager, snapshot) => applyTimelineSnapshot(manager, notifier, snapshot),
    applyPage: (manager, snapshots) => applyTimelineSnapshots(manager, notifier, snapshots),
    localIds: (manager, afterId, limit) => idsAfter(manager, 'timelines', afterId, limit),
    remove: (manager, id) => forgetTimeline(manager, notifier, id),
  };
}
