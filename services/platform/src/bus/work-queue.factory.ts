import { type BusLogger, defaultBusLogger } from './bus-logger.js';
import type { WorkQueue } from './work-queue.js';
import { openSharedInProcessWorkQueue } from './work-queue-in-process.js';
import { JetStreamWorkQueue, type WorkStreamOptions } from './work-queue-jetstream.js';

export interface WorkQueueConfig {
  /** `nats://host:4222`, or several comma-separated; unset means single-process mode. */
  natsUrl?: string;
  /** Deployment prefix on the wire (`tl`), the same as the event bus's. */
  prefix: string;
  /** Connection name shown by NATS, usually the service name. */
  name?: string;
  logger?: BusLogger;
  stream?: WorkStreamOptions;
}

/**
 * JetStream work queues when NATS is configured; otherwise an in-memory queue shared by every
 * service of this process under the same prefix (it survives nothing across a restart).
 */
export async function createWorkQueue(config: WorkQueueConfig): Promise<WorkQueue> {
  const logger = config.logger ?? defaultBusLogger;
  if (config.natsUrl) {
    const servers = config.natsUrl.split(',').map((server) => server.trim()).filter(Boolean);
    return JetStreamWorkQueue.connect({
      servers,
      prefix: config.prefix,
      logger,
      ...(config.name ? { name: config.name } : {}),
      ...(config.stream ? { stream: config.stream } : {}),
    });
  }
  logger.info({ prefix: config.prefix }, 'Work queue: in-process (no NATS_URL); queued jobs do not survive a restart');
  return openSharedInProcessWorkQueue(config.prefix, logger);
}
