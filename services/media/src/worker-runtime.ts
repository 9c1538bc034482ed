import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import {
  databaseHealthCheck,
  type EventBus,
  EventWriter,
  type Logger,
  type ObjectStorage,
  OutboxRelay,
  type ProcessOptions,
  type Subscription,
  Transactions,
  type WorkQueue,
} from '@timeliner/platform';
import { MediaJobs, MediaType, PersonalData } from '@timeliner/proto';
import { Counter, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { DataExportRepository } from './data-exports/data-exports.repository.js';
import { ExportRepository } from './exports/exports.repository.js';
import { MediaRepository } from './media/media.repository.js';
import { type FfmpegBinaries, resolveBinaries, run } from './processing/ffmpeg.js';
import { DataExportProcessor } from './processing/data-export-processor.js';
import { ExportProcessor } from './processing/export-processor.js';
import { DEFAULT_PROCESSING_FAIRNESS, DEFAULT_PROCESSING_LIMITS, type ProcessingLimits } from './processing/limits.js';
import { MediaProcessor } from './processing/media-processor.js';
import { FairProcessing } from './queue/fair-processing.js';
import { WorkQueueProcessing } from './queue/work-queue-processing.js';

export interface MediaWorkerOptions {
  /** Opened on the media schema (its entities include Media and the outbox). */
  dataSource: DataSource;
  bus: EventBus;
  storage: ObjectStorage;
  logger: Logger;
  /** Where `MediaJobs.Process` and `MediaJobs.Export` jobs come from (`createWorkQueue`, shared with the API in one process). */
  queue: WorkQueue;
  /** Jobs this process runs at once; default 1 (ffmpeg already uses every core). */
  concurrency?: number;
  ffmpegPath?: string;
  ffprobePath?: string;
  /** Retry policy of the jobs; default 3 attempts, 10 s then 60 s apart, lease extended every 10 s. */
  jobPolicy?: Omit<ProcessOptions, 'concurrency'>;
  /** Registry the worker's metrics go to; default a registry of its own (see `metrics`). */
  registry?: Registry;
  /** Re-queue media left in `processing` whose job was lost (default true). */
  requeueOnStart?: boolean;
  tempDir?: string;
  /** What one upload may cost: duration, frame rate, pixels, a job's time (`ProcessingConfig`). */
  limits?: Partial<ProcessingLimits>;
  /** Media of one person in the work queue at once (`FairProcessing`); default 1. */
  perPerson?: number;
  /** How often media waiting for their person's turn are looked at, besides after each job; default 30 s. */
  turnsIntervalMs?: number;
  /**
   * How often lost jobs are looked for while running (as on start, `requeueStuck`); default 5 min.
   * A person's queued media whose job was lost would otherwise hold their later uploads.
   */
  lostJobsIntervalMs?: number;
}

export interface RunningMediaWorker {
  /** Stops taking jobs, kills running ffmpeg (the jobs go back to the queue), stops the relay. */
  close(): Promise<void>;
  /** Re-queues media left in `processing` whose job is not pending (and queues those whose turn came); returns how many. */
  requeueStuck(): Promise<number>;
  /** Readiness checks: database, bus, work queue, storage, ffmpeg. */
  healthChecks: Record<string, () => Promise<boolean>>;
  registry: Registry;
  binaries: FfmpegBinaries;
}

/**
 * The processing worker: consumes `MediaJobs.Process` (probe, thumbnail, HLS ladder; images:
 * web rendition and thumbnail), updates the media rows, publishes `MediaEvents.*` through the
 * outbox (its own relay; the API's relay on the same table is harmless, rows are claimed with
 * SKIP LOCKED) and progress over the bus for `/ws`.
 *
 * Lost jobs: with the in-process queue (single-process mode) nothing queued survives a restart,
 * and with JetStream a job can vanish if its failure hook failed twice. On start, media rows in
 * `processing` that were queued once (`queued_at` set) and whose job is not pending are queued
 * again (`requeueStuck`). Rows never queued (`queued_at` null) are the API's upload sweep's.
 */
export async function startMediaWorker(options: MediaWorkerOptions): Promise<RunningMediaWorker> {
  const { dataSource, bus, storage, logger, queue } = options;
  const binaries = resolveBinaries({ ffmpegPath: options.ffmpegPath, ffprobePath: options.ffprobePath });
  await checkBinaries(binaries, logger);

  const registry = options.registry ?? new Registry();
  const metrics = workerMetrics(registry);
  const relay = new OutboxRelay(dataSource, bus, { logger });
  relay.start();
  const limits = { ...DEFAULT_PROCESSING_LIMITS, ...options.limits };
  const media = new MediaRepository(dataSource);
  const transactions = new Transactions(dataSource);
  const events = new EventWriter(relay);
  const processor = new MediaProcessor({ media, transactions, events, bus, storage, logger, binaries, limits, ...(options.tempDir ? { tempDir: options.tempDir } : {}) });
  // After each job, its person's next media (if one waits) joins the end of the queue.
  const turns = new FairProcessing(media, transactions, new WorkQueueProcessing(queue), logger, options.perPerson ?? DEFAULT_PROCESSING_FAIRNESS.perPerson);
  const nextTurns = () =>
    turns.release().catch((error: unknown) => {
      logger.error({ err: error }, 'could not queue media waiting for their turn');
      return 0;
    });

  const exporter = new ExportProcessor({
    exports: new ExportRepository(dataSource), media, transactions, events, storage, logger, binaries, bus, ...(options.tempDir ? { tempDir: options.tempDir } : {}),
  });

  let subscription: Subscription | undefined;
  let exportSubscription: Subscription | undefined;
  let dataExportSubscription: Subscription | undefined;
  const dataExporter = new DataExportProcessor({ exports: new DataExportRepository(dataSource), storage, bus, logger });
  try {
    subscription = await queue.process(
      MediaJobs.Process,
      { maxDeliver: 3, backoffMs: [10_000, 60_000], ackExtendMs: 10_000, ...options.jobPolicy, concurrency: options.concurrency ?? 1 },
      {
        run: async (job) => {
          const started = process.hrtime.bigint();
          const kind = job.payload.mediaType === MediaType.IMAGE ? 'image' : 'video';
          logger.info({ mediaId: job.payload.mediaId, kind, attempt: job.attempt }, 'processing media');
          try {
            const outcome = await processor.process(job);
            const seconds = Number(process.hrtime.bigint() - started) / 1e9;
            if (!outcome.skipped) {
              metrics.processed.inc({ media_type: kind });
              metrics.duration.observe({ media_type: kind }, seconds);
              if (outcome.mediaSeconds > 0) metrics.mediaSeconds.inc(outcome.mediaSeconds);
            }
            logger.info(
              { mediaId: job.payload.mediaId, kind, seconds: Number(seconds.toFixed(2)), mediaSeconds: outcome.mediaSeconds, skipped: outcome.skipped },
              outcome.skipped ? 'media job skipped' : 'media processed',
            );
          } catch (error) {
            if (!job.signal.aborted) metrics.attemptsFailed.inc({ media_type: kind });
            throw error;
          } finally {
            if (!job.signal.aborted) await nextTurns();
          }
        },
        failed: async (job, error) => {
          const kind = job.payload.mediaType === MediaType.IMAGE ? 'image' : 'video';
          metrics.failed.inc({ media_type: kind });
          logger.warn({ mediaId: job.payload.mediaId, err: error }, 'media processing failed for good');
          await processor.fail(job, error);
          await nextTurns();
        },
      },
    );
    // Exports: one timeline's completed videos concatenated into one MP4 (see export-processor.ts).
    exportSubscription = await queue.process(
      MediaJobs.Export,
      { maxDeliver: 2, backoffMs: [10_000], ackExtendMs: 10_000, ...options.jobPolicy, concurrency: options.concurrency ?? 1 },
      {
        run: async (job) => {
          const started = process.hrtime.bigint();
          logger.info({ exportId: job.payload.exportId, videos: job.payload.mediaIds.length, attempt: job.attempt }, 'exporting timeline');
          const outcome = await exporter.process(job);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          logger.info({ exportId: job.payload.exportId, seconds: Number(seconds.toFixed(2)), skipped: outcome.skipped }, outcome.skipped ? 'export job skipped' : 'timeline exported');
        },
        failed: async (job, error) => {
          logger.warn({ exportId: job.payload.exportId, err: error }, 'export failed for good');
          await exporter.fail(job, error);
        },
      },
    );
    // "Download your data": a person's archive, gathered from every service and streamed into storage (see data-export-processor.ts).
    dataExportSubscription = await queue.process(
      PersonalData.ExportJob,
      { maxDeliver: 2, backoffMs: [30_000], ackExtendMs: 10_000, ...options.jobPolicy, concurrency: 1 },
      {
        run: async (job) => {
          const started = process.hrtime.bigint();
          logger.info({ exportId: job.payload.exportId, attempt: job.attempt }, 'gathering personal data');
          const outcome = await dataExporter.process(job);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          logger.info({ exportId: job.payload.exportId, seconds: Number(seconds.toFixed(2)), bytes: outcome.bytes, files: outcome.files, skipped: outcome.skipped }, outcome.skipped ? 'data export job skipped' : 'personal data exported');
        },
        failed: async (job, error) => {
          logger.warn({ exportId: job.payload.exportId, err: error }, 'data export failed for good');
          await dataExporter.fail(job, error);
        },
      },
    );
  } catch (error) {
    await subscription?.unsubscribe().catch(() => undefined);
    await exportSubscription?.unsubscribe().catch(() => undefined);
    await relay.stop();
    throw error;
  }

  const requeueStuck = async (): Promise<number> => {
    const rows = await media.queuedProcessing(1000);
    let requeued = 0;
    for (const row of rows) {
      if (await queue.isPending(MediaJobs.Process, row.id)) continue;
      const job = {
        mediaId: row.id,
        timelineId: row.timelineId,
        mediaType: row.mediaType === 'image' ? MediaType.IMAGE : MediaType.VIDEO,
        originalKey: row.filename,
        mimeType: row.mimeType,
      };
      let { duplicate } = await queue.enqueue(MediaJobs.Process, job, { id: row.id });
      // Not pending yet dropped: its id is still in the duplicate window (enqueued minutes ago,
      // then lost). A job id of its own gets it through; the handler works per media, not per id.
      if (duplicate) ({ duplicate } = await queue.enqueue(MediaJobs.Process, job, { id: `${row.id}-r${Date.now().toString(36)}` }));
      if (!duplicate) requeued++;
    }
    if (requeued > 0) logger.warn({ requeued }, 're-queued media whose processing job was lost');
    return requeued + (await nextTurns());
  };
  if (options.requeueOnStart !== false) {
    await requeueStuck().catch((error: unknown) => logger.error({ err: error }, 'could not re-queue stuck media'));
  }
  const turnsTimer = setInterval(() => void nextTurns(), options.turnsIntervalMs ?? 30_000);
  turnsTimer.unref();
  const lostJobsTimer = setInterval(() => {
    requeueStuck().catch((error: unknown) => logger.error({ err: error }, 'could not re-queue stuck media'));
  }, options.lostJobsIntervalMs ?? 300_000);
  lostJobsTimer.unref();

  let closing: Promise<void> | undefined;
  return {
    requeueStuck,
    registry,
    binaries,
    healthChecks: {
      database: databaseHealthCheck(dataSource),
      bus: () => bus.isHealthy(),
      workQueue: () => queue.isHealthy(),
      storage: () => storage.isHealthy(),
      ffmpeg: () => binariesPresent(binaries),
    },
    close() {
      closing ??= (async () => {
        clearInterval(turnsTimer);
        clearInterval(lostJobsTimer);
        await subscription?.unsubscribe();
        await exportSubscription?.unsubscribe();
        await dataExportSubscription?.unsubscribe();
        await relay.stop();
      })();
      return closing;
    },
  };
}

async function checkBinaries(binaries: FfmpegBinaries, logger: Logger): Promise<void> {
  try {
    const [ffmpeg] = await Promise.all([run(binaries.ffmpeg, ['-hide_banner', '-version']), run(binaries.ffprobe, ['-hide_banner', '-version'])]);
    logger.info({ ffmpeg: binaries.ffmpeg, ffprobe: binaries.ffprobe, version: ffmpeg.split('\n')[0] }, 'media worker: ffmpeg found');
  } catch (error) {
    throw new Error(`ffmpeg/ffprobe not usable (${binaries.ffmpeg}, ${binaries.ffprobe}); install ffmpeg or set FFMPEG_PATH/FFPROBE_PATH`, { cause: error });
  }
}

async function binariesPresent(binaries: FfmpegBinaries): Promise<boolean> {
  const check = (path: string) => (path.includes('/') ? access(path, constants.X_OK).then(() => true, () => false) : Promise.resolve(true));
  return (await check(binaries.ffmpeg)) && (await check(binaries.ffprobe));
}

function workerMetrics(registry: Registry) {
  // A second worker on the same registry (tests) replaces the first one's series.
  for (const name of ['media_jobs_processed_total', 'media_jobs_failed_total', 'media_job_attempts_failed_total', 'media_job_duration_seconds', 'media_video_seconds_processed_total']) {
    if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  }
  return {
    processed: new Counter({ name: 'media_jobs_processed_total', help: 'Media jobs finished', labelNames: ['media_type'] as const, registers: [registry] }),
    failed: new Counter({ name: 'media_jobs_failed_total', help: 'Media jobs given up (the media is in error)', labelNames: ['media_type'] as const, registers: [registry] }),
    attemptsFailed: new Counter({ name: 'media_job_attempts_failed_total', help: 'Failed attempts (retried or given up)', labelNames: ['media_type'] as const, registers: [registry] }),
    duration: new Histogram({
      name: 'media_job_duration_seconds',
      help: 'Wall time of a finished media job',
      labelNames: ['media_type'] as const,
      buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
      registers: [registry],
    }),
    mediaSeconds: new Counter({ name: 'media_video_seconds_processed_total', help: 'Seconds of video processed (÷ job seconds = × realtime)', registers: [registry] }),
  };
}
