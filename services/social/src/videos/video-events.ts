import { isUuid, on } from '@timeliner/platform';
import { MediaEvents, MediaType } from '@timeliner/proto';
import type { MediaKind } from './video.entity.js';
import { VideoRepository } from './video.repository.js';

/** Videos, and images (known only to be reported and decided on); nothing else. */
const kindOf = (type: MediaType): MediaKind | null => (type === MediaType.VIDEO ? 'video' : type === MediaType.IMAGE ? 'image' : null);

/**
 * The videos read model: which videos (and images) exist and on which timeline, from the media
 * service's events. Likes and comments on videos, and reports of either, are checked against it,
 * and through its timeline, against access.
 * A deletion leaves a tombstone, so an upload announcement arriving after it does not bring the
 * video back; both are idempotent, so redelivery changes nothing.
 */
export const videoEventHandlers = [
  on(MediaEvents.UploadCompleted, async (upload, _meta, manager) => {
    const kind = kindOf(upload.mediaType);
    if (!kind || !isUuid(upload.mediaId) || !isUuid(upload.timelineId)) return;
    await new VideoRepository(manager.connection).recordUpload(manager, upload.mediaId.toLowerCase(), upload.timelineId.toLowerCase(), kind);
  }),
  on(MediaEvents.MediaDeleted, async (media, _meta, manager) => {
    const kind = kindOf(media.mediaType);
    if (!kind || !isUuid(media.mediaId) || !isUuid(media.timelineId)) return;
    await new VideoRepository(manager.connection).forget(manager, media.mediaId.toLowerCase(), media.timelineId.toLowerCase(), kind);
  }),
];
