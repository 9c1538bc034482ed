import { idOf, MissingReferenceError, on } from '@timeliner/platform';
import type { EntityManager } from 'typeorm';
import { MediaEvents, MediaType } from '@timeliner/proto';
import type { Notifier } from '../notifications/notifier.js';
import { bury, isGone, mayAccess, maySee, timelineFacts } from '../timelines/timeline-events.js';
import { VideoRecord } from './video.entity.js';

/**
 * Who uploaded each video (UploadCompleted), told when its processing ends; the requester of an
 * export, told when it is ready. The end of processing of a video whose upload has not been heard
 * of yet, or an export of a timeline not heard of yet, throws MissingReferenceError (tried again
 * later); a deleted video or timeline leaves a tombstone, so events about it are known to be moot.
 */
export const mediaEventHandlers = (notifier: Notifier) => {
  const processingEnded = (kind: 'video_processed' | 'video_failed') => async (mediaIdRaw: string, occurredAt: string, manager: EntityManager) => {
    const mediaId = idOf(mediaIdRaw);
    if (!mediaId) return;
    const video = await manager.findOneBy(VideoRecord, { id: mediaId });
    if (!video) {
      if (await isGone(manager, 'video', mediaId)) return;
      throw new MissingReferenceError('video', mediaId);
    }
    if (!(await maySee(manager, video.timelineId, video.uploaderId))) return;
    await notifier.add(manager, {
      recipientId: video.uploaderId,
      kind,
      target: { type: 'video', id: mediaId, timelineId: video.timelineId, title: video.originalName || null },
      // Once per video and outcome, however often the event comes.
      sourceKey: `${kind}:${mediaId}`,
      actorId: null,
      occurredAt: new Date(occurredAt),
    });
  };
  const processed = processingEnded('video_processed');
  const failed = processingEnded('video_failed');

  return [
    on(MediaEvents.UploadCompleted, async (upload, _meta, manager) => {
      const id = idOf(upload.mediaId);
      const timelineId = idOf(upload.timelineId);
      const uploaderId = idOf(upload.uploaderId);
      if (upload.mediaType !== MediaType.VIDEO || !id || !timelineId || !uploaderId) return;
      if (await isGone(manager, 'video', id)) return;
      await manager.upsert(VideoRecord, { id, timelineId, uploaderId, originalName: upload.originalName.slice(0, 255) }, ['id']);
    }),
    on(MediaEvents.VideoProcessed, (video, meta, manager) => processed(video.mediaId, meta.occurredAt, manager)),
    on(MediaEvents.VideoFailed, (video, meta, manager) => failed(video.mediaId, meta.occurredAt, manager)),
    on(MediaEvents.MediaDeleted, async (deleted, _meta, manager) => {
      const id = idOf(deleted.mediaId);
      if (!id) return;
      await notifier.dropAboutTarget(manager, 'video', id);
      await manager.delete(VideoRecord, { id });
      await bury(manager, 'video', id);
    }),
    on(MediaEvents.ExportCompleted, async (done, meta, manager) => {
      const exportId = idOf(done.exportId);
      const requesterId = idOf(done.requesterId);
      const timelineId = idOf(done.timelineId);
      if (!exportId || !requesterId) return;
      const timeline = timelineId ? await timelineFacts(manager, timelineId) : null;
      if (timelineId && !timeline) return; // deleted meanwhile
      if (timeline && !(await mayAccess(manager, timeline, requesterId))) return;
      await notifier.add(manager, {
        recipientId: requesterId,
        kind: 'export_ready',
        target: { type: 'export', id: exportId, timelineId, title: timeline?.title ?? done.fileName.replace(/\.mp4$/, '') },
        sourceKey: `export:${exportId}`,
        actorId: null,
        occurredAt: new Date(meta.occurredAt),
      });
    }),
  ];
};
