import { type BusLogger, defaultBusLogger } from './bus-logger.js';
import type { EventBus } from './event-bus.port.js';
import { JetStreamEventBus, type JetStreamEventBusOptions } from './jetstream-event-bus.js';
import { openSharedInProcessBus } from './shared-in-process-bus.js';
import { waitFor } from '../startup/wait-for.js';

export interface EventBusConfig {
  /** `nats://host:4222`, or several comma-separated; unset means single-process mode. */
  natsUrl?: string;
  /** Deployment prefix on the wire (`tl`). */
  prefix: string;
  /** Connection name shown by NATS, usually the service name. */
  name?: string;
  logger?: BusLogger;
  stream?: JetStreamEventBusOptions['stream'];
  /** Keep trying to reach NATS for this long (capped backoff) instead of failing at once. */
  waitMs?: number;
}

/**
 * JetStream when NATS is configured; otherwise the in-process bus, shared by every service of
 * this process under the same prefix.
 */
export async function createEventBus(config: EventBusConfig): Promise<EventBus> {
  const logger = config.logger ?? defaultBusLogger;
  if (config.natsUrl) {
    const servers = config.natsUrl.split(',').map((server) => server.trim()).filter(Boolean);
    logger.info({ servers: servers.map(withoutCredentials), prefix: config.prefix }, 'Event bus: NATS JetStream');
    const connect = () => JetStreamEventBus.connect({
      servers,
      prefix: config.prefix,
      logger,
      ...(config.name ? { name: config.name } : {}),
      ...(config.stream ? { stream: config.stream } : {}),
    });
    if (!config.waitMs) return connect();
    return waitFor(`NATS at ${servers.map(withoutCredentials).join(', ')}`, connect, { timeoutMs: config.waitMs, logger });
  }
  logger.info(
    { prefix: config.prefix },
    'Event bus: in-process (no NATS_URL). Events reach only services in this process; the outbox keeps them across restarts',
  );
  return openSharedInProcessBus(config.prefix, logger);
}

function withoutCredentials(server: string): string {
  return server.replace(/\/\/[^@/]*@/, '//');
}
