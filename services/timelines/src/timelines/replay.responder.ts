import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { TimelinesRpc } from '@timeliner/proto';
import { type SnapshotRow, snapshotOf } from './snapshot.js';
import type { TimelineRepository } from './timeline.repository.js';

const MAX_PAGE = 1000;

/**
 * Answers a read model's rebuild (TimelinesRpc.Replay): the timelines as they stand, one page in
 * id order at a time, each as the snapshot its last change published (the same revision: nothing
 * is bumped, nothing goes through the outbox), so a consumer applying them keeps whichever of the
 * replayed and the live snapshot is newer. Timelines that never had a snapshot (revision 0) are
 * left to the start-up backfill, which publishes them on the stream. With `with_members`, each
 * timeline's team too (its collaborators and their version), for the copies of the teams.
 * Queue group `timelines`.
 */
export function serveTimelineReplay(bus: EventBus, timelines: TimelineRepository): Promise<Subscription> {
  return serveRpc(bus, TimelinesRpc.Replay, 'timelines', async ({ afterId, limit, timelineIds, withMembers }) => {
    const size = Math.min(Math.max(1, limit || 200), MAX_PAGE);
    let rows: SnapshotRow[];
    if (timelineIds.length > 0) {
      rows = await timelines.snapshotsOf(timelineIds.filter(isUuid).slice(0, MAX_PAGE));
    } else {
      if (afterId && !isUuid(afterId)) throw new Error('after_id is not a timeline id');
      rows = await timelines.snapshotPage(afterId || undefined, size);
    }
    const covers = await timelines.coverFactsOf(rows.map((row) => row.id));
    const first = !afterId && timelineIds.length === 0;
    const total = first ? await timelines.countSnapshotted() : 0n;
    const teams = withMembers ? await timelines.teamsOf(rows.map((row) => row.id)) : undefined;
    return {
      snapshots: rows.map((row) => snapshotOf(row, covers.get(row.id)?.mediaId ?? '', covers.get(row.id)?.altText ?? '')),
      total,
      // A timeline deleted between the two reads has no team: an empty one at version 0 changes nothing newer.
      members: teams ? rows.map((row) => ({ timelineId: row.id, userIds: teams.get(row.id)?.userIds ?? [], membersVersion: teams.get(row.id)?.membersVersion ?? 0n })) : [],
    };
  });
}
