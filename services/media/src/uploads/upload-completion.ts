import { randomUUID } from 'node:crypto';
import { type EventBus, type EventWriter, broadcastRealtime } from '@timeliner/platform';
import { MediaEvents, MediaType as ProtoMediaType, Realtime } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { Media } from '../media/media.entity.js';
import { originalKey } from '../media/media-keys.js';
import type { ProcessingQueue } from '../queue/processing-queue.js';
import { mediaTypeOfMime, titleFrom } from './file-acceptance.js';

export interface StoredUpload {
  mediaId: string;
  timelineId: string;
  uploaderId: string;
  originalName: string;
  /** The type the content was recognised as. */
  mimeType: string;
  size: number;
  requestId?: string;
}

export const protoMediaType = (mediaType: Media['mediaType']): ProtoMediaType =>
  mediaType === 'image' ? ProtoMediaType.IMAGE : ProtoMediaType.VIDEO;

/**
 * What happens once an original is stored, whichever way it came (tus or a simple multipart
 * POST): the media row (status `processing` until the worker is done) and
 * `MediaEvents.UploadCompleted` in one transaction; after the commit, the processing job and
 * the realtime `video_upload_started`.
 */
export class UploadCompletion {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventWriter,
    private readonly queue: ProcessingQueue,
    private readonly bus: EventBus,
    private readonly logger: Logger,
  ) {}

  /** Inserts the media row and the event with `manager` (the caller's transaction). */
  async record(manager: EntityManager, upload: StoredUpload): Promise<Media> {
    const mediaType = mediaTypeOfMime(upload.mimeType);
    const rows: Media[] = await manager.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'processing',
               (SELECT coalesce(max(position), -1) + 1 FROM media WHERE timeline_id = $2), now())
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [upload.mediaId, upload.timelineId, upload.uploaderId, originalKey(upload.mediaId), upload.originalName, titleFrom(upload.originalName), mediaType, upload.size, upload.mimeType],
    );
    if (rows.length > 0) {
      await this.events.add(manager, MediaEvents.UploadCompleted, {
        mediaId: upload.mediaId,
        timelineId: upload.timelineId,
        uploaderId: upload.uploaderId,
        mediaType: protoMediaType(mediaType),
        originalName: upload.originalName,
        mimeType: upload.mimeType,
        size: BigInt(upload.size),
      }, { actorUserId: upload.uploaderId, requestId: upload.requestId ?? randomUUID() });
    }
    return manager.findOneByOrFail(Media, { id: upload.mediaId });
  }

  /** After the commit: the event goes out, the job is queued, the timeline's watchers are told. */
  async announce(media: Media, requestId?: string): Promise<void> {
    this.events.committed();
    await this.queueProcessing(media);
    try {
      await broadcastRealtime(this.bus, Realtime.timelineSubject(media.timelineId), {
        type: 'video_upload_started',
        timelineId: media.timelineId,
        video: { id: media.id, originalName: media.originalName },
      }, { actorUserId: media.uploaderId, ...(requestId ? { requestId } : {}) });
    } catch (err) {
      this.logger.warn({ err, mediaId: media.id }, 'could not broadcast video_upload_started');
    }
  }

  /**
   * Hands the job to the work queue and notes when; a failure leaves `queued_at` empty and the
   * sweep tries again, so a stored upload is never left unprocessed.
   */
  async queueProcessing(media: Pick<Media, 'id' | 'timelineId' | 'mediaType' | 'filename' | 'mimeType'>): Promise<boolean> {
    try {
      await this.queue.enqueue({
        mediaId: media.id,
        timelineId: media.timelineId,
        mediaType: protoMediaType(media.mediaType),
        originalKey: media.filename,
        mimeType: media.mimeType,
      });
    } catch (err) {
      this.logger.error({ err, mediaId: media.id }, 'could not queue processing; the sweep will retry');
      return false;
    }
    await this.dataSource.query('UPDATE media SET queued_at = now() WHERE id = $1 AND queued_at IS NULL', [media.id]);
    return true;
  }
}
