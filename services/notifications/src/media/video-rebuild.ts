import { type EventBus, idOf, idsAfter, type RebuildableReadModel, replayedMedia } from '@timeliner/platform';
import { MediaType, type ReplayedMedia } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';
import { bury, isGone } from '../timelines/timeline-events.js';
import { VideoRecord } from './video.entity.js';

/**
 * Who uploaded each video (told when its processing ends) rebuilt from the media service's replay
 * (`read-model rebuild notifications --model videos`), applied as UploadCompleted is
 * (media-events.ts): a video deleted here stays deleted (its tombstone); one the media service no
 * longer has goes as MediaDeleted would have it, with what its uploader was told about it.
 */
export function videosReadModel(bus: EventBus, notifier: Notifier): RebuildableReadModel<ReplayedMedia> {
  return {
    name: 'videos',
    ...replayedMedia(bus),
    async apply(manager, media) {
      const id = idOf(media.mediaId);
      const timelineId = idOf(media.timelineId);
      const uploaderId = idOf(media.uploaderId);
      if (media.mediaType !== MediaType.VIDEO || !id || !timelineId || !uploaderId) return;
      if (await isGone(manager, 'video', id)) return;
      await manager.upsert(VideoRecord, { id, timelineId, uploaderId, originalName: media.originalName.slice(0, 255) }, ['id']);
    },
    localIds: (manager, afterId, limit) => idsAfter(manager, 'videos', afterId, limit),
    async remove(manager, id) {
      await notifier.dropAboutTarget(manager, 'video', id);
      await manager.delete(VideoRecord, { id });
      await bury(manager, 'video', id);
    },
  };
}
