import fastifyMultipart from '@fastify/multipart';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import {
 BusStaffRoles, BusTimelineAccess, consumeEvents, createServiceApp, databaseHealthCheck, type EventBus, EventWriter, listenService, type ObjectStorage, openDatabase, OutboxRelay,
 type RunningService, Transactions, type WorkQueue, type IdentitySecret } from '@timeliner/platform';
import { accountDeletionHandlers } from './accounts/account-deletion.js';
import { AVATAR_UPLOAD_ROUTES } from './avatars/avatars.controller.js';
import { CAPTION_UPLOAD_ROUTES } from './captions/captions.controller.js';
import { type DataExportQueue, RecordingDataExportQueue, WorkQueueDataExports } from './data-exports/data-export-queue.js';
import { DataExportsService } from './data-exports/data-exports.service.js';
import { type ExportQueue, RecordingExportQueue, WorkQueueExports } from './exports/export-queue.js';
import { ExportRepository } from './exports/exports.repository.js';
import { type ExportsOptions, ExportsService } from './exports/exports.service.js';
import { MediaModule } from './media.module.js';
import { moderationEventHandlers } from './media/moderation-events.js';
import { MediaRepository } from './media/media.repository.js';
import { serveMediaReplay } from './media/media-replay.responder.js';
import { DEFAULT_PROCESSING_FAIRNESS, type ProcessingFairness } from './processing/limits.js';
import { FairProcessing } from './queue/fair-processing.js';
import type { ProcessingQueue } from './queue/processing-queue.js';
import { WorkQueueProcessing } from './queue/work-queue-processing.js';
import { schema } from './schema.js';
import { DEFAULT_STORAGE_QUOTA_BYTES } from './storage/storage-quota.js';
import { StorageSweep } from './storage/storage-sweep.js';
import { timelineEventHandlers } from './timelines/timeline-events.js';
import { MAX_UPLOAD_BYTES } from './uploads/file-acceptance.js';
import { SIMPLE_UPLOAD_ROUTES } from './uploads/simple-uploads.js';
import { TUS_CONTENT_TYPE, TUS_VERSION, type TusUploadOptions, TusUploads } from './uploads/tus-uploads.js';
import { UploadSessionRepository } from './uploads/upload-session.repository.js';

export interface MediaServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
  /** Originals, renditions, thumbnails (`createObjectStorage(config)`). */
  storage: ObjectStorage;
  /** Where processing jobs go: the platform's work queue (`createWorkQueue`)... */
  workQueue?: WorkQueue;
  /** ...or any other ProcessingQueue (tests record the jobs, with no turns). One of the two is required. */
  processing?: ProcessingQueue;
  /**
   * Turns between people on the work queue (`FairProcessing`, one media each by default) and the
   * most media one person may have waiting for processing before uploads are refused (20).
   */
  processingFairness?: Partial<ProcessingFairness>;
  /** How long the timelines service gets to answer an access check; default 2 s. */
  timelinesTimeoutMs?: number;
  uploads?: TusUploadOptions;
  /** Storage per person (originals plus renditions); default 10 GB. */
  storageQuotaBytes?: number;
  /** How long the original of media whose processing failed is kept; default 72 h. */
  failedOriginalRetentionMs?: number;
  /** Period of the upload sweep (expired sessions, orphaned multipart uploads, failed originals, storage measurement); default 10 min, 0 = never. */
  sweepIntervalMs?: number;
  /** Where export jobs go; default `MediaJobs.Export` on `workQueue` (without one, exports stay queued). */
  exportQueue?: ExportQueue;
  /** Where "Download your data" jobs go; default `PersonalData.ExportJob` on `workQueue` (without one, archives stay queued). */
  dataExportQueue?: DataExportQueue;
  /** How long POST /api/timelines/{id}/export waits for the worker (default 120 s) and polls (250 ms). */
  exports?: ExportsOptions;
}

export interface RunningMediaService extends RunningService {
  dataSource: DataSource;
  /** Runs the sweep of expired uploads, exports and failed originals, and measures stored renditions, now (it also runs on a timer). */
  sweep(now?: Date): Promise<Awaited<ReturnType<TusUploads['sweep']>> & Awaited<ReturnType<ExportsService['sweep']>> & Awaited<ReturnType<StorageSweep['sweep']>> & Awaited<ReturnType<DataExportsService['sweep']>>>;
}

const isMultipartRoute = (route: string): boolean => SIMPLE_UPLOAD_ROUTES.has(route) || AVATAR_UPLOAD_ROUTES.has(route) || CAPTION_UPLOAD_ROUTES.has(route);

/** Consumer group of this service on the event stream: replicas share it. */
export const CONSUMER_GROUP = 'media';

/**
 * Starts the media service: its schema and migrations, the outbox relay, the consumer of timeline
 * deletions, the replay of its items (for the copies' rebuilds), the upload sweep and the HTTP API.
 * The processing worker runs apart (`startMediaWorker`); this side only queues its jobs.
 */
export async function startMediaService(options: MediaServiceOptions): Promise<RunningMediaService> {
  const { logger, bus, storage } = options;
  if (!options.processing && !options.workQueue) throw new Error('startMediaService needs a workQueue (or a processing queue)');
  const fairness = { ...DEFAULT_PROCESSING_FAIRNESS, ...options.processingFairness };

  const dataSource = await openDatabase({ url: options.databaseUrl, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const relay = new OutboxRelay(dataSource, bus, { logger });
  relay.start();
  const events = new EventWriter(relay);
  const access = new BusTimelineAccess(bus, logger, options.timelinesTimeoutMs ?? 2_000);
  const processing = options.processing ?? new FairProcessing(new MediaRepository(dataSource), new Transactions(dataSource), new WorkQueueProcessing(options.workQueue!), logger, fairness.perPerson);
  const exportQueue = options.exportQueue ?? (options.workQueue ? new WorkQueueExports(options.workQueue) : new RecordingExportQueue());
  const dataExportQueue = options.dataExportQueue ?? (options.workQueue ? new WorkQueueDataExports(options.workQueue) : new RecordingDataExportQueue());

  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, [...timelineEventHandlers(storage, logger, {
    media: new MediaRepository(dataSource), sessions: new UploadSessionRepository(dataSource), exports: new ExportRepository(dataSource),
  }), ...moderationEventHandlers(new MediaRepository(dataSource)), ...accountDeletionHandlers(storage, logger, { media: new MediaRepository(dataSource), exports: new ExportRepository(dataSource) })]);
  // The items as they stand, for the copies rebuilt from them (`npm run read-model -- rebuild social --model media`).
  const replay = await serveMediaReplay(bus, dataSource);

  const app = await createServiceApp({
    name: 'media',
    module: MediaModule.forRoot({
      dataSource, events, storage, access, staff: new BusStaffRoles(bus, logger), processing, exportQueue, dataExportQueue, bus, logger, identitySecret: options.identitySecret,
      settings: {
        maxPendingPerPerson: fairness.maxPendingPerPerson,
        storageQuotaBytes: options.storageQuotaBytes ?? DEFAULT_STORAGE_QUOTA_BYTES,
        ...(options.uploads ? { uploads: options.uploads } : {}),
        ...(options.exports ? { exports: options.exports } : {}),
        ...(options.failedOriginalRetentionMs !== undefined ? { sweep: { failedOriginalRetentionMs: options.failedOriginalRetentionMs } } : {}),
      },
    }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: {
      database: databaseHealthCheck(dataSource),
      bus: () => bus.isHealthy(),
      storage: () => storage.isHealthy(),
      ...(options.workQueue ? { workQueue: () => options.workQueue!.isHealthy() } : {}),
    },
  });
  const fastify = app.getHttpAdapter().getInstance();
  // tus bodies reach the handler unread, as a stream.
  fastify.addContentTypeParser(TUS_CONTENT_TYPE, (_request, payload, done) => done(null, payload));
  // Multipart forms are parsed only by the simple upload routes and the avatar upload; elsewhere they are refused unread.
  await app.register(fastifyMultipart as never, { limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 10, parts: 20, fieldSize: 1024 } });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/uploads')) void reply.header('tus-resumable', TUS_VERSION);
    const type = request.headers['content-type'];
    if (typeof type === 'string' && type.toLowerCase().startsWith('multipart/') && !(request.method === 'POST' && isMultipartRoute(request.routeOptions.url ?? ''))) {
      void reply.status(415).header('connection', 'close').send({ statusCode: 415, error: 'Unsupported Media Type', message: 'Unsupported content type' });
      return;
    }
    done();
  });

  const url = await listenService(app, { name: 'media', port: options.port, host: options.host, logger });
  const tus = app.get(TusUploads);
  const exports = app.get(ExportsService);
  const dataExports = app.get(DataExportsService);
  const storageSweep = app.get(StorageSweep);

  const sweepEvery = options.sweepIntervalMs ?? 10 * 60_000;
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = (now?: Date) => {
    const run = Promise.all([tus.sweep(now), exports.sweep(now), storageSweep.sweep(now), dataExports.sweep(now)]).then(([uploads, made, stored, archives]) => ({ ...uploads, ...made, ...stored, ...archives }));
    sweeping = run.catch(() => undefined);
    return run;
  };
  const timer = sweepEvery > 0
    ? setInterval(() => {
      sweep().then((result) => logger.debug(result, 'upload sweep'), (err: unknown) => logger.error({ err }, 'upload sweep failed'));
    }, sweepEvery)
    : undefined;
  timer?.unref();

  return {
    app,
    url,
    dataSource,
    sweep,
    async close() {
      if (timer) clearInterval(timer);
      await app.close();
      await sweeping;
      await replay.unsubscribe();
      await consumer.unsubscribe();
      await relay.stop();
      await dataSource.destroy();
    },
  };
}
