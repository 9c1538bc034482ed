import { type EventBus, idOf, idsAfter, type RebuildableReadModel, replayedTimelines, requestRpc } from '@timeliner/platform';
import { type TimelineMembers, type TimelineSnapshot, TimelinesRpc } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';
import { replaceTeam } from './team-copy.js';
import { applyTimelineSnapshot, applyTimelineSnapshots, forgetTimeline } from './timeline-events.js';
import { TimelineMember, TimelineRecord } from './timeline.entity.js';

/**
 * The notifications service's timelines (owner, title, visibility: who may see what is told about
 * them) rebuilt from the timelines service's replay (`read-model rebuild notifications --model
 * timelines`): each page of snapshots applied at once as the live ones are (the highest revision wins, a deleted
 * timeline stays deleted, one made private takes its notifications from everyone outside it), and
 * a timeline the timelines service no longer has goes as its deletion would. Collaborators
 * (timeline_members) are `membersReadModel`'s.
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

const REPLAY_TIMEOUT_MS = 30_000;

/**
 * The notifications service's copy of the teams (timeline_members: who besides the owner may see
 * a private timeline, and so keeps what they were told about it) rebuilt from the timelines
 * service's replay with each timeline's team (`read-model rebuild notifications --model members`):
 * each team taken as it stands at its version (members_version) over the older changes here, never
 * over a newer one; a person no longer on a private team loses what they were told about it, as
 * CollaboratorRemoved would have it. A team of a timeline this copy does not hold yet waits for its
 * timeline (rebuild `timelines` first); one of a timeline the timelines service no longer has goes.
 */
export function membersReadModel(bus: EventBus, notifier: Notifier): RebuildableReadModel<TimelineMembers> {
  return {
    name: 'members',
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, TimelinesRpc.Replay, { afterId, limit, withMembers: true }, { timeoutMs: REPLAY_TIMEOUT_MS });
      return { rows: reply.members, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, TimelinesRpc.Replay, { timelineIds: ids, withMembers: true }, { timeoutMs: REPLAY_TIMEOUT_MS })).members;
    },
    idOf: (team) => team.timelineId.toLowerCase(),
    async apply(manager, team) {
      const timelineId = idOf(team.timelineId);
      if (!timelineId) return;
      const timeline = await manager.findOneBy(TimelineRecord, { id: timelineId });
      if (!timeline) return;
      const userIds = team.userIds.map((id) => idOf(id)).filter((id): id is string => id !== null);
      const gone = await replaceTeam(manager, timelineId, userIds, team.membersVersion);
      const outsiders = gone.filter((userId) => userId !== timeline.ownerId);
      if (timeline.visibility === 'private' && outsiders.length > 0) await notifier.dropAboutTimeline(manager, timelineId, { only: outsiders });
    },
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query(
        'SELECT DISTINCT timeline_id AS id FROM timeline_members WHERE timeline_id > $1 ORDER BY timeline_id LIMIT $2',
        [afterId || '00000000-0000-0000-0000-000000000000', limit],
      )) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, id) {
      // The timelines service no longer has the timeline: its deletion will say the rest.
      await manager.delete(TimelineMember, { timelineId: id });
    },
  };
}
