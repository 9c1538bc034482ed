import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  broadcastRealtime,
  type EventBus,
  type EventWriter,
  type Job,
  type Logger,
  ObjectNotFoundError,
  type ObjectStorage,
  type Transactions,
} from '@timeliner/platform';
import { MediaEvents, MediaType, type ProcessMediaJob, Realtime, type RealtimeMessage } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { Media, MediaMetadata } from '../media/media.entity.js';
import type { MediaRepository } from '../media/media.repository.js';
import { hlsKey, mediaPrefix, processedKeys } from '../storage/object-keys.js';
import { AbortedError, type FfmpegBinaries } from './ffmpeg.js';
import { GENERIC_IMAGE_FAILURE, GENERIC_VIDEO_FAILURE, ProcessingFailure, reasonOf } from './failures.js';
import { processImage } from './image.js';
import { checkVideo, DEFAULT_PROCESSING_LIMITS, JobClock, jobSeconds, type ProcessingLimits } from './limits.js';
import { probe } from './probe.js';
import { ProgressReporter } from './progress.js';
import { type FinishedRendition, MASTER_PLAYLIST, renditionFiles, transcodeVideo } from './transcode.js';

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.jpg': 'image/jpeg',
};
const contentTypeOf = (file: string): string => CONTENT_TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream';

/** The media row was deleted while it was being processed: stop and leave nothing behind. */
class MediaGoneError extends Error {
  constructor(mediaId: string) {
    super(`Media ${mediaId} was deleted during processing`);
    this.name = 'MediaGoneError';
  }
}

export interface ProcessorDeps {
  media: MediaRepository;
  transactions: Transactions;
  /** Writes VideoProcessed, ImageProcessed and VideoFailed with the change (the relay is nudged after the commit). */
  events: EventWriter;
  bus: EventBus;
  storage: ObjectStorage;
  logger: Logger;
  binaries: FfmpegBinaries;
  /** Where temporary files go; default the OS temp directory. */
  tempDir?: string;
  /** What one upload may cost (duration, frame rate, pixels, time); default `DEFAULT_PROCESSING_LIMITS`. */
  limits?: ProcessingLimits;
}

export interface ProcessOutcome {
  kind: 'video' | 'image';
  /** Seconds of video processed (0 for images). */
  mediaSeconds: number;
  skipped?: 'gone' | 'done' | 'busy';
}

/**
 * The job handler of `MediaJobs.Process`. Idempotent per media: a retried or duplicated job
 * starts clean (the rendition prefix is emptied, keys are fixed per media), a finished media is
 * skipped, and a Postgres advisory lock keeps two workers off the same media at once.
 */
export class MediaProcessor {
  private readonly limits: ProcessingLimits;

  constructor(private readonly deps: ProcessorDeps) {
    this.limits = deps.limits ?? DEFAULT_PROCESSING_LIMITS;
  }

  async process(job: Job<ProcessMediaJob>): Promise<ProcessOutcome> {
    const { mediaId } = job.payload;
    const kind = job.payload.mediaType === MediaType.IMAGE ? 'image' : 'video';
    const unlock = await this.deps.media.tryLockProcessing(mediaId, (error) =>
      this.deps.logger.warn({ err: error, mediaId }, 'could not release the processing lock; it goes with the connection'));
    if (!unlock) {
      this.deps.logger.info({ mediaId }, 'media is being processed by another worker; job skipped');
      return { kind, skipped: 'busy', mediaSeconds: 0 };
    }
    try {
      const media = await this.deps.media.find(mediaId);
      if (!media) return { kind, skipped: 'gone', mediaSeconds: 0 };
      if (media.status === 'completed' || media.status === 'error') {
        this.deps.logger.info({ mediaId, status: media.status }, 'media already processed; job skipped');
        return { kind, skipped: 'done', mediaSeconds: 0 };
      }
      // The job's time: the base until the video's length is known, then in proportion to it.
      const clock = new JobClock(job.signal, jobSeconds(0, this.limits));
      try {
        return media.mediaType === 'image' ? await this.image(job, media, clock) : await this.video(job, media, clock);
      } catch (error) {
        if (!(error instanceof MediaGoneError)) throw clock.explain(error);
        await this.deps.storage.deletePrefix(mediaPrefix(mediaId)).catch(() => undefined);
        this.deps.logger.info({ mediaId }, 'media deleted during processing; outputs removed');
        return { kind, skipped: 'gone', mediaSeconds: 0 };
      } finally {
        clock.stop();
      }
    } finally {
      await unlock();
    }
  }

  /** The job is given up: the media becomes `error`, with a reason the creator can read. */
  async fail(job: Job<ProcessMediaJob>, error: unknown): Promise<void> {
    const { mediaId, timelineId } = job.payload;
    const media = await this.deps.media.find(mediaId);
    if (!media || media.status === 'completed') return;
    const isImage = media.mediaType === 'image';
    const reason = reasonOf(error, isImage ? GENERIC_IMAGE_FAILURE : GENERIC_VIDEO_FAILURE);
    await this.deps.transactions.run(async (manager) => {
      await this.deps.media.update(mediaId, { status: 'error', errorReason: reason, processedAt: new Date() }, manager);
      if (!isImage) {
        await this.deps.events.add(manager, MediaEvents.VideoFailed, { mediaId, timelineId, reason }, this.context(job));
      }
    });
    await this.broadcast(
      timelineId,
      isImage
        ? { type: 'media_processing_error', timelineId, mediaId, mediaType: 'image', error: reason }
        : { type: 'video_processing_error', timelineId, videoId: mediaId, error: reason },
    );
  }

  // -----------------------------------------------------------------------------------------------

  private async video(job: Job<ProcessMediaJob>, media: Media, clock: JobClock): Promise<ProcessOutcome> {
    const { mediaId, timelineId } = job.payload;
    const progress = new ProgressReporter((update) =>
      this.broadcast(timelineId, { type: 'video_processing_progress', timelineId, videoId: mediaId, progress: update }),
    );
    progress.report('probing', 0, 'Reading the video');
    // A fresh start: whatever an interrupted attempt left is replaced.
    await this.update(mediaId, { status: 'processing', hlsMasterKey: null, errorReason: null, metadata: withoutRenditions(media.metadata) });
    await this.deps.storage.deletePrefix(processedKeys.hlsPrefix(mediaId));

    const work = await mkdtemp(join(this.deps.tempDir ?? tmpdir(), `media-${mediaId.slice(0, 8)}-`));
    try {
      const input = await this.download(job, join(work, 'original'), clock.signal);
      const info = await probe(this.deps.binaries.ffprobe, input, 'video', clock.signal, this.limits.maxVideoPixels);
      // Refused from the header, before anything is decoded.
      checkVideo(info, this.limits);
      clock.allow(jobSeconds(info.duration, this.limits));
      const metadata: MediaMetadata = {
        ...withoutRenditions(media.metadata),
        width: info.displayWidth,
        height: info.displayHeight,
        codec: info.codec,
        hasAudio: info.hasAudio,
        renditions: [],
        ...(info.createdAt ? { createdAt: info.createdAt } : {}),
      };
      await this.update(mediaId, { duration: info.duration, metadata });
      progress.report('probing', 1, 'Reading the video');

      const out = join(work, 'out');
      const result = await transcodeVideo({
        ffmpeg: this.deps.binaries.ffmpeg,
        ffprobe: this.deps.binaries.ffprobe,
        input,
        outDir: out,
        probe: info,
        signal: clock.signal,
        maxPixels: this.limits.maxVideoPixels,
        onProgress: (p) => progress.report(p.stage, p.fraction, p.message),
        onStills: async ({ thumbnail, poster }) => {
          await this.putFile(thumbnail, processedKeys.thumbnail(mediaId));
          await this.putFile(poster, processedKeys.poster(mediaId));
          await this.update(mediaId, { thumbnailKey: processedKeys.thumbnail(mediaId) });
          job.working();
        },
        onRenditions: async (done, added) => {
          await this.publishRenditions(out, mediaId, added);
          // The video is playable from here on: the master lists the finished renditions.
          await this.putFile(join(out, 'hls', MASTER_PLAYLIST), processedKeys.master(mediaId));
          metadata.renditions = done.map((r) => r.lines);
          await this.update(mediaId, { hlsMasterKey: processedKeys.master(mediaId), metadata: { ...metadata } });
          job.working();
        },
      });

      progress.report('finalizing', 0, 'Finishing');
      const renditions = result.renditions.map((r) => r.lines);
      await this.deps.transactions.run(async (manager) => {
        await this.updateIn(manager, mediaId, { status: 'completed', processedAt: new Date(), errorReason: null, metadata: { ...metadata, renditions } });
        await this.deps.events.add(
          manager,
          MediaEvents.VideoProcessed,
          {
            mediaId,
            timelineId,
            duration: info.duration,
            width: info.displayWidth,
            height: info.displayHeight,
            renditions,
            ...(info.createdAt ? { recordedAt: timestampFromDate(new Date(info.createdAt)) } : {}),
          },
          this.context(job),
        );
      });
      progress.report('finalizing', 1, 'Video ready');
      await progress.flush();
      await this.broadcast(timelineId, { type: 'video_processing_completed', timelineId, video: { id: mediaId } });
      // The studio view of the spec listens for this spelling.
      await this.broadcast(timelineId, { type: 'video_processing_complete', timelineId, video: { id: mediaId } });
      return { kind: 'video', mediaSeconds: info.duration };
    } finally {
      await progress.flush();
      await rm(work, { recursive: true, force: true });
    }
  }

  private async image(job: Job<ProcessMediaJob>, media: Media, clock: JobClock): Promise<ProcessOutcome> {
    const { mediaId, timelineId } = job.payload;
    await this.update(mediaId, { status: 'processing', errorReason: null });
    const work = await mkdtemp(join(this.deps.tempDir ?? tmpdir(), `media-${mediaId.slice(0, 8)}-`));
    try {
      const input = await this.download(job, join(work, 'original'), clock.signal);
      const result = await processImage({ ...this.deps.binaries, input, outDir: join(work, 'out'), signal: clock.signal, limits: this.limits });
      await this.putFile(result.web, processedKeys.webImage(mediaId));
      await this.putFile(result.thumbnail, processedKeys.thumbnail(mediaId));
      await this.deps.transactions.run(async (manager) => {
        await this.updateIn(manager, mediaId, {
          status: 'completed',
          processedAt: new Date(),
          errorReason: null,
          thumbnailKey: processedKeys.thumbnail(mediaId),
          metadata: { ...media.metadata, width: result.width, height: result.height },
        });
        await this.deps.events.add(manager, MediaEvents.ImageProcessed, { mediaId, timelineId, width: result.width, height: result.height }, this.context(job));
      });
      await this.broadcast(timelineId, { type: 'media_processing_completed', timelineId, mediaId, mediaType: 'image' });
      return { kind: 'image', mediaSeconds: 0 };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Uploads a pass's renditions: segments, then each variant playlist. */
  private async publishRenditions(outDir: string, mediaId: string, renditions: FinishedRendition[]): Promise<void> {
    for (const rendition of renditions) {
      const files = await renditionFiles(outDir, rendition);
      const segments = files.filter((f) => !f.endsWith('.m3u8'));
      const playlists = files.filter((f) => f.endsWith('.m3u8'));
      await inBatches(segments, 4, (file) => this.putFile(file, hlsKey(mediaId, `${rendition.name}/${basename(file)}`)));
      for (const file of playlists) await this.putFile(file, hlsKey(mediaId, `${rendition.name}/${basename(file)}`));
    }
  }

  private async download(job: Job<ProcessMediaJob>, file: string, signal: AbortSignal): Promise<string> {
    let source;
    try {
      source = await this.deps.storage.get(job.payload.originalKey);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw ProcessingFailure.missingOriginal();
      throw error;
    }
    await pipeline(source, createWriteStream(file), { signal }).catch((error: unknown) => {
      throw signal.aborted ? new AbortedError() : error;
    });
    return file;
  }

  private async putFile(file: string, key: string): Promise<void> {
    const { size } = await stat(file);
    await this.deps.storage.put(key, createReadStream(file), { contentType: contentTypeOf(file), size });
  }

  private update(mediaId: string, changes: Partial<Media>): Promise<void> {
    return this.updateIn(undefined, mediaId, changes);
  }

  private async updateIn(manager: EntityManager | undefined, mediaId: string, changes: Partial<Media>): Promise<void> {
    if (!(await this.deps.media.update(mediaId, changes, manager))) throw new MediaGoneError(mediaId);
  }

  private context(job: Job<ProcessMediaJob>) {
    return { ...(job.meta.actorUserId ? { actorUserId: job.meta.actorUserId } : {}), ...(job.meta.requestId ? { requestId: job.meta.requestId } : {}) };
  }

  private async broadcast(timelineId: string, message: RealtimeMessage): Promise<void> {
    try {
      await broadcastRealtime(this.deps.bus, Realtime.timelineSubject(timelineId), message);
    } catch (error) {
      // Progress is a courtesy; a bus hiccup must not fail the job.
      this.deps.logger.warn({ err: error, type: message.type }, 'could not broadcast a processing message');
    }
  }
}

function withoutRenditions(metadata: MediaMetadata | null | undefined): MediaMetadata {
  const { renditions: _renditions, ...rest } = metadata ?? {};
  return rest;
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}
