import { randomUUID } from 'node:crypto';
import { type EventBus, type EventWriter, broadcastRealtime, TooManyRequestsException } from '@timeliner/platform';
import { MediaEvents, MediaType as ProtoMediaType, Realtime } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { Media } from '../media/media.entity.js';
import type { MediaRepository } from '../media/media.repository.js';
import { originalKey } from '../storage/object-keys.js';
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

/** What the studio shows for a video queued behind its person's earlier uploads (`FairProcessing`). */
export const WAITING_FOR_TURN = 'Waiting for your earlier uploads to be processed';

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
    private readonly media: MediaRepository,
    private readonly events: EventWriter,
    private readonly queue: ProcessingQueue,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    /** Media of one person that may wait for processing before their next upload is refused (429). */
    private readonly maxPendingPerPerson = 20,
  ) {}

  /**
   * Refuses a new upload (429, Retry-After a minute) while the person already has
   * `maxPendingPerPerson` media waiting for processing: what one person can put in front of the
   * worker is bounded.
   */
  async assertCanUpload(userId: string): Promise<void> {
    const n = await this.media.pendingOf(userId);
    if (n >= this.maxPendingPerPerson) {
      throw new TooManyRequestsException(`You have ${n} uploads waiting to be processed, the most at once; upload more when some are ready`, 60);
    }
  }

  /** Inserts the media row and the event with `manager` (the caller's transaction). */
  async record(manager: EntityManager, upload: StoredUpload): Promise<Media> {
    const mediaType = mediaTypeOfMime(upload.mimeType);
    const inserted = await this.media.insertUploaded(manager, {
      id: upload.mediaId, timelineId: upload.timelineId, uploaderId: upload.uploaderId, filename: originalKey(upload.mediaId), originalName: upload.originalName,
      title: titleFrom(upload.originalName), mediaType, size: upload.size, mimeType: upload.mimeType,
    });
    if (inserted) {
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
    const media = await this.media.find(upload.mediaId, manager);
    if (!media) throw new Error(`Media ${upload.mediaId} is not there after its insert`);
    return media;
  }

  /** The studio shows why a video has not started: the person's earlier uploads are processed first. */
  private async tellWaiting(media: Pick<Media, 'id' | 'timelineId' | 'mediaType'>): Promise<void> {
    if (media.mediaType !== 'video') return;
    try {
      await broadcastRealtime(this.bus, Realtime.timelineSubject(media.timelineId), {
        type: 'video_processing_progress',
        timelineId: media.timelineId,
        videoId: media.id,
        progress: { stage: 'waiting', progress: 0, message: WAITING_FOR_TURN },
      });
    } catch (err) {
      this.logger.warn({ err, mediaId: media.id }, 'could not broadcast that a video waits its turn');
    }
  }

  /**
   * After the commit: the job is queued, the timeline's watchers are told (and,
   * when the video waits for the person's earlier uploads, that it does).
   */
  async announce(media: Media, requestId?: string): Promise<void> {
    const outcome = await this.enqueue(media);
    try {
      await broadcastRealtime(this.bus, Realtime.timelineSubject(media.timelineId), {
        type: 'video_upload_started',
        timelineId: media.timelineId,
        video: { id: media.id, originalName: media.originalName },
      }, { actorUserId: media.uploaderId, ...(requestId ? { requestId } : {}) });
    } catch (err) {
      this.logger.warn({ err, mediaId: media.id }, 'could not broadcast video_upload_started');
    }
    if (outcome === 'waiting') await this.tellWaiting(media);
  }

  /**
   * Hands the job to the work queue and notes when; a failure leaves `queued_at` empty and the
   * sweep tries again, so a stored upload is never left unprocessed. A job waiting for its
   * person's turn (`FairProcessing`) is not queued yet: the worker queues it after their previous one.
   */
  async queueProcessing(media: Pick<Media, 'id' | 'timelineId' | 'mediaType' | 'filename' | 'mimeType'>): Promise<boolean> {
    return (await this.enqueue(media)) === 'queued';
  }

  private async enqueue(media: Pick<Media, 'id' | 'timelineId' | 'mediaType' | 'filename' | 'mimeType'>): Promise<'queued' | 'waiting' | 'failed'> {
    let outcome;
    try {
      outcome = await this.queue.enqueue({
        mediaId: media.id,
        timelineId: media.timelineId,
        mediaType: protoMediaType(media.mediaType),
        originalKey: media.filename,
        mimeType: media.mimeType,
      });
    } catch (err) {
      this.logger.error({ err, mediaId: media.id }, 'could not queue processing; the sweep will retry');
      return 'failed';
    }
    if (outcome === 'waiting') return 'waiting';
    await this.media.markQueued(media.id);
    return 'queued';
  }
}
