import { idOf, on, type ObjectStorage, Outbox, requestOutboxErasure } from '@timeliner/platform';
import { AuthEvents, MediaEvents } from '@timeliner/proto';
import type { Logger } from 'pino';
import { deleteExports } from '../exports/exports.service.js';
import type { ExportRepository } from '../exports/exports.repository.js';
import type { MediaRepository } from '../media/media.repository.js';
import { dataExportPrefix, mediaPrefix, uploadPrefix } from '../storage/object-keys.js';
import { protoMediaType } from '../uploads/upload-completion.js';

export interface AccountDeletionRepositories {
  media: MediaRepository;
  exports: ExportRepository;
}

/**
 * An account gone for good (auth's UserDeleted): the items it put in other people's timelines go
 * as a removal would (originals and renditions, then the row, with MediaDeleted so their counts go
 * down; its own timelines' items go with their TimelineDeleted), and so do its uploads in
 * progress, the exports it asked for, its data archives, its profile picture, the captions it
 * wrote and its usage counters. Objects go before rows: should a deletion fail, the event is
 * redelivered and the rows still say what to delete.
 */
export const accountDeletionHandlers = (storage: ObjectStorage, logger: Logger, { media, exports }: AccountDeletionRepositories) => [
  on(AuthEvents.UserDeleted, async (deleted, meta, manager) => {
    const id = idOf(deleted.userId);
    if (!id) return;
    // The outbox rows naming the person go once sent (the MediaDeleted below among them).
    await requestOutboxErasure(manager, { userId: id, names: [deleted.username, deleted.email] });
    const context = { actorUserId: id, ...(meta.requestId ? { requestId: meta.requestId } : {}) };
    const q = <T = unknown>(sql: string, params: unknown[] = [id]) => manager.query(sql, params) as Promise<T>;

    const items = await q<Array<{ id: string; timeline_id: string; media_type: 'video' | 'image'; duration: number; processed_at: Date | null }>>(
      'SELECT id, timeline_id, media_type, duration, processed_at FROM media WHERE uploader_id = $1 ORDER BY id FOR UPDATE',
    );
    for (const item of items) {
      await storage.deletePrefix(mediaPrefix(item.id));
      if (!(await media.delete(manager, item.id))) continue;
      await Outbox.add(manager, MediaEvents.MediaDeleted, {
        mediaId: item.id,
        timelineId: item.timeline_id,
        mediaType: protoMediaType(item.media_type),
        duration: item.media_type === 'video' && item.processed_at ? item.duration : 0,
      }, context);
    }

    const uploads = await q<Array<{ id: string; filename: string; multipart_id: string | null }>>('SELECT id, filename, multipart_id FROM upload_sessions WHERE user_id = $1');
    for (const upload of uploads) {
      if (upload.multipart_id) await storage.abortMultipart(upload.filename, upload.multipart_id).catch((err: unknown) => logger.debug({ err }, 'multipart upload already gone'));
      await storage.deletePrefix(uploadPrefix(upload.id));
    }
    await q('DELETE FROM upload_sessions WHERE user_id = $1');

    const asked = await q<Array<{ id: string }>>('SELECT id FROM exports WHERE requested_by = $1', [id]);
    await deleteExports(exports, storage, asked.map((row) => row.id), manager);

    const archives = await q<Array<{ id: string }>>('SELECT id FROM data_exports WHERE user_id = $1');
    for (const archive of archives) await storage.deletePrefix(dataExportPrefix(archive.id));
    await q('DELETE FROM data_exports WHERE user_id = $1');

    await storage.deletePrefix(`avatars/${id}/`);
    await q('DELETE FROM avatars WHERE user_id = $1');
    await q('DELETE FROM video_captions WHERE uploaded_by = $1');
    await q('DELETE FROM storage_usage WHERE user_id = $1');
    await q('DELETE FROM person_limit_hits WHERE user_id = $1');
    logger.info({ userId: id, items: items.length, uploads: uploads.length, exports: asked.length, archives: archives.length }, 'deleted the media of a deleted account');
  }),
];
