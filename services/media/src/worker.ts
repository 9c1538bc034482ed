import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  closeOnSignal,
  ConfigError,
  createEventBus,
  createLogger,
  createObjectStorage,
  createWorkQueue,
  loadConfig,
  openDatabase,
  setDatabasePoolWait,
  waitForPostgres,
} from '@timeliner/platform';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { schema } from './schema.js';
import { listenHealth } from './processing/health-server.js';
import { ProcessingConfig } from './processing/limits.js';
import { startMediaWorker } from './worker-runtime.js';
import { defaultProcessingConcurrency } from './worker-concurrency.js';

/** Settings of the media processing worker process (the processing limits are shared with the API). */
export class MediaWorkerConfig extends ProcessingConfig {
  /** Health and metrics port. */
  override PORT: number = 3010;

  /** ffmpeg binary; default the system's (/usr/bin/ffmpeg), else `ffmpeg` on the PATH. */
  @IsOptional()
  @IsString()
  FFMPEG_PATH: string | undefined = undefined;

  @IsOptional()
  @IsString()
  FFPROBE_PATH: string | undefined = undefined;

  /** Jobs run at once by this process; default from the machine's cores and memory (worker-concurrency.ts). */
  @IsInt()
  @Min(1)
  @Max(16)
  MEDIA_WORKER_CONCURRENCY: number = defaultProcessingConcurrency();
}

/**
 * The media worker as its own process (compose, Kubernetes): `/health/live`, `/health/ready`
 * (database, bus, work queue, storage, ffmpeg) and `/metrics` on PORT (3010). SIGTERM stops
 * taking jobs, kills running ffmpeg (those jobs go back to the queue at once) and exits.
 */
async function main() {
  const config = loadConfig(MediaWorkerConfig);
  const logger = createLogger('media-worker', config.LOG_LEVEL);
  if (!config.DATABASE_URL) throw new ConfigError(['DATABASE_URL: is required for the media worker']);
  if (!config.NATS_URL) {
    logger.warn('No NATS_URL: the worker only sees jobs queued in this process (single-process mode runs it in the launcher)');
  }

  const registry = new Registry();
  registry.setDefaultLabels({ service: 'media-worker' });
  collectDefaultMetrics({ register: registry });

  await waitForPostgres(config.DATABASE_URL, { timeoutMs: config.STARTUP_WAIT_SECONDS * 1000, logger });
  // A job holds a connection while it runs; progress, health and the queue's bookkeeping need a few more.
  if (config.DATABASE_POOL_SIZE < 4 + config.MEDIA_WORKER_CONCURRENCY) {
    logger.warn({ pool: config.DATABASE_POOL_SIZE, concurrency: config.MEDIA_WORKER_CONCURRENCY }, 'DATABASE_POOL_SIZE is below 4 + MEDIA_WORKER_CONCURRENCY: jobs will wait for connections');
  }
  setDatabasePoolWait(config.DATABASE_POOL_WAIT_SECONDS * 1000);
  const dataSource = await openDatabase({ url: config.DATABASE_URL, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger, poolSize: config.DATABASE_POOL_SIZE, poolMode: config.DATABASE_POOL_MODE });
  const bus = await createEventBus({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'media-worker', logger, waitMs: config.STARTUP_WAIT_SECONDS * 1000, stream: config.streamOptions() });
  const queue = await createWorkQueue({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'media-worker', logger, stream: config.streamOptions() });
  const storage = await createObjectStorage(config);
  const worker = await startMediaWorker({
    dataSource,
    bus,
    storage,
    logger,
    queue,
    registry,
    concurrency: config.MEDIA_WORKER_CONCURRENCY,
    limits: config.processingLimits(),
    perPerson: config.MEDIA_PROCESSING_PER_PERSON,
    ...(config.FFMPEG_PATH ? { ffmpegPath: config.FFMPEG_PATH } : {}),
    ...(config.FFPROBE_PATH ? { ffprobePath: config.FFPROBE_PATH } : {}),
  });
  const server = await listenHealth(worker, config.PORT, config.HOST);
  logger.info({ port: config.PORT, concurrency: config.MEDIA_WORKER_CONCURRENCY }, 'media worker ready');

  closeOnSignal(logger, config.SHUTDOWN_GRACE_SECONDS, [
    () => worker.close(),
    () => queue.close(),
    () => bus.close(),
    () => dataSource.destroy(),
    () => new Promise<void>((resolve) => server.close(() => resolve())),
  ]);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  console.error(err);
  process.exit(1);
});
