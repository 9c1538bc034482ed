import { isUuid, on } from '@timeliner/platform';
import { MediaEvents, MediaType } from '@timeliner/proto';
import { VideoRepository } from './video.repository.js';

/**
 * The videos read model: which videos exist and on which timeline, from the media service's
 * events. Likes and comments are checked against it, and through its timeline, against access.
 * A deletion leaves a tombstone, so an upload announcement arriving after it does not bring the
 * video back; both are idempotent, so redelivery changes nothing.
 */
export const videoEventHandlers = [
  on(MediaEvents.UploadCompleted, async (upload, _meta, manager) => {
    if (upload.mediaType !== MediaType.VIDEO || !isUuid(upload.mediaId) || !isUuid(upload.timelineId)) return;
    await new VideoRepository(manager.connection).recordUpload(manager, upload.mediaId.toLowerCase(), upload.timelineId.toLowerCase());
  }),
  on(MediaEvents.MediaDeleted, async (media, _meta, manager) => {
    if (media.mediaType !== MediaType.VIDEO || !isUuid(media.mediaId) || !isUuid(media.timelineId)) return;
    await new VideoRepository(manager.connection).forget(manager, media.mediaId.toLowerCase(), media.timelineId.toLowerCase());
  }),
];
