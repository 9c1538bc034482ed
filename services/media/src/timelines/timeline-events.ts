import { isUuid, on, type ObjectStorage } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { Logger } from 'pino';
import { deleteExports } from '../exports/exports.service.js';
import type { ExportRepository } from '../exports/exports.repository.js';
import type { MediaRepository } from '../media/media.repository.js';
import { mediaPrefix, uploadPrefix } from '../storage/object-keys.js';
import type { UploadSessionRepository } from '../uploads/upload-session.repository.js';

export interface TimelineEventRepositories {
  media: MediaRepository;
  sessions: UploadSessionRepository;
  exports: ExportRepository;
}

/**
 * A deleted timeline's media goes with it: its objects, its rows, its uploads in progress and its
 * exports (a signed download link of one then opens nothing).
 * Objects go first: should that fail, the event is redelivered and the rows still say what to
 * delete. No per-media events: the timeline and its counters are gone.
 */
export const timelineEventHandlers = (storage: ObjectStorage, logger: Logger, { media, sessions, exports }: TimelineEventRepositories) => [
  on(TimelinesEvents.TimelineDeleted, async (timeline, _meta, manager) => {
    if (!isUuid(timeline.timelineId)) return;
    const timelineId = timeline.timelineId.toLowerCase();
    const mediaIds = await media.idsOfTimeline(manager, timelineId);
    for (const id of mediaIds) await storage.deletePrefix(mediaPrefix(id));
    const uploads = await sessions.activeOfTimeline(manager, timelineId);
    for (const upload of uploads) {
      if (upload.multipartId) await storage.abortMultipart(upload.filename, upload.multipartId);
      await storage.deletePrefix(uploadPrefix(upload.id));
    }
    const exportIds = await exports.idsOfTimeline(manager, timelineId);
    await deleteExports(exports, storage, exportIds, manager);
    await media.deleteTimeline(manager, timelineId);
    await sessions.cancelTimeline(manager, timelineId);
    logger.info({ timelineId, media: mediaIds.length, uploads: uploads.length, exports: exportIds.length }, 'deleted the media of a deleted timeline');
  }),
];
