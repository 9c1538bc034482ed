import { randomUUID } from 'node:crypto';
import { clipCodeUnits, idOf, on } from '@timeliner/platform';
import { MediaEvents } from '@timeliner/proto';

/**
 * Downloads of a timeline's exports, as the media service serves them (`ExportDownloaded`: the
 * file fetched from its first byte): each counts in the timeline's analytics, at the time it
 * happened. The inbox drops a redelivered event; a timeline deleted meanwhile counts nothing.
 */
export const downloadEventHandlers = [
  on(MediaEvents.ExportDownloaded, async (download, meta, manager) => {
    const timelineId = idOf(download.timelineId);
    if (!timelineId || !download.viewerKey) return;
    const exists: unknown[] = await manager.query('SELECT 1 FROM timelines WHERE id = $1', [timelineId]);
    if (exists.length === 0) return;
    await manager.query(`INSERT INTO timeline_engagements (id, timeline_id, kind, channel, viewer_key, created_at) VALUES ($1, $2, 'download', NULL, $3, $4)`, [
      randomUUID(),
      timelineId,
      clipCodeUnits(download.viewerKey, 80),
      meta.occurredAt,
    ]);
  }),
];
