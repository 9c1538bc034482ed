import { on, type ObjectStorage } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { Logger } from 'pino';
import { isUuid } from '../ids.js';
import { deleteExports } from '../exports/exports.service.js';
import { mediaPrefix, uploadPrefix } from '../media/media-keys.js';

/**
 * A deleted timeline's media goes with it: its objects, its rows, its uploads in progress and its
 * exports (a signed download link of one then opens nothing).
 * Objects go first: should that fail, the event is redelivered and the rows still say what to
 * delete. No per-media events: the timeline and its counters are gone.
 */
export const timelineEventHandlers = (storage: ObjectStorage, logger: Logger) => [
  on(TimelinesEvents.TimelineDeleted, async (timeline, _meta, manager) => {
    if (!isUuid(timeline.timelineId)) return;
    const timelineId = timeline.timelineId.toLowerCase();
    const media: Array<{ id: string }> = await manager.query('SELECT id FROM media WHERE timeline_id = $1', [timelineId]);
    for (const { id } of media) await storage.deletePrefix(mediaPrefix(id));
    const uploads: Array<{ id: string; filename: string; multipart_id: string | null }> = await manager.query(
      `SELECT id, filename, multipart_id FROM upload_sessions WHERE timeline_id = $1 AND status = 'active'`, [timelineId],
    );
    for (const upload of uploads) {
      if (upload.multipart_id) await storage.abortMultipart(upload.filename, upload.multipart_id);
      await storage.deletePrefix(uploadPrefix(upload.id));
    }
    const exports: Array<{ id: string }> = await manager.query('SELECT id FROM exports WHERE timeline_id = $1', [timelineId]);
    await deleteExports(manager, storage, exports);
    await manager.query('DELETE FROM media WHERE timeline_id = $1', [timelineId]);
    await manager.query(`UPDATE upload_sessions SET status = 'cancelled', tail_key = NULL, tail_size = 0, updated_at = now() WHERE timeline_id = $1 AND status = 'active'`, [timelineId]);
    logger.info({ timelineId, media: media.length, uploads: uploads.length, exports: exports.length }, 'deleted the media of a deleted timeline');
  }),
];
