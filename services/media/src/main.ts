import { createObjectStorage, createWorkQueue, runServiceProcess } from '@timeliner/platform';
import { MediaConfig } from './media.config.js';
import { startMediaService } from './service.js';

/** The media service (API side) as its own process; the worker is `worker.ts`. */
runServiceProcess('media', MediaConfig, async ({ config, logger, bus, databaseUrl, identitySecret }) => {
  const storage = await createObjectStorage(config);
  const workQueue = await createWorkQueue({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'media', logger, stream: config.streamOptions() });
  const service = await startMediaService({
    databaseUrl,
    bus,
    logger,
    identitySecret,
    port: config.PORT,
    host: config.HOST,
    storage,
    workQueue,
    timelinesTimeoutMs: config.TIMELINES_TIMEOUT_MS,
    sweepIntervalMs: config.UPLOAD_SWEEP_MINUTES * 60_000,
    processingFairness: config.processingFairness(),
    ...config.storageOptions(),
  });
  return {
    async close() {
      await service.close();
      await workQueue.close();
    },
  };
});
