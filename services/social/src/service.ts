import type { Logger } from 'pino';
import { BusTimelineAccess, consumeEvents, createServiceApp, databaseHealthCheck, type EventBus, openDatabase, OutboxRelay, listenService, type RunningService, type IdentitySecret } from '@timeliner/platform';
import { EventWriter } from '@timeliner/platform';
import { pruneFeedKeys } from './feed/feed-keys.js';
import { feedTimelineEventHandlers } from './feed/feed-timeline-events.js';
import { followEventHandlers } from './follows/follow-events.js';
import { schema } from './schema.js';
import { SocialModule } from './social.module.js';
import { timelineEventHandlers } from './timelines/timeline-events.js';
import { userEventHandlers } from './users/user-events.js';
import { videoEventHandlers } from './videos/video-events.js';

export interface SocialServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
  /** How long the timelines service gets to answer an access check; default 2 s. */
  timelinesTimeoutMs?: number;
}

/** Consumer group of this service on the event stream: replicas share it. */
export const CONSUMER_GROUP = 'social';

/**
 * Starts the social service: its schema and migrations, the outbox relay, the consumer that keeps
 * its read models (people, timelines) in step, and the HTTP API. Used by the standalone process
 * and by the single-process mode alike.
 */
export async function startSocialService(options: SocialServiceOptions): Promise<RunningService> {
  const { logger, bus } = options;
  const dataSource = await openDatabase({ url: options.databaseUrl, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const relay = new OutboxRelay(dataSource, bus, { logger });
  relay.start();
  const events = new EventWriter(relay);

  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, [...userEventHandlers, ...timelineEventHandlers, ...feedTimelineEventHandlers, ...videoEventHandlers, ...followEventHandlers(events)]);
  const timelineAccess = new BusTimelineAccess(bus, logger, options.timelinesTimeoutMs ?? 2_000);

  const app = await createServiceApp({
    name: 'social',
    module: SocialModule.forRoot({ dataSource, events, timelineAccess }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: { database: databaseHealthCheck(dataSource), bus: () => bus.isHealthy() },
  });
  const url = await listenService(app, { name: 'social', port: options.port, host: options.host, logger });
  // The feed's key history is needed only as long as a read may last (feed-keys.ts).
  const pruning = setInterval(() => {
    pruneFeedKeys(dataSource.manager).catch((error: unknown) => logger.warn({ err: error }, 'feed key history not pruned; trying again later'));
  }, 10 * 60_000);
  pruning.unref();

  return {
    app,
    url,
    async close() {
      clearInterval(pruning);
      await app.close();
      await consumer.unsubscribe();
      await relay.stop();
      await dataSource.destroy();
    },
  };
}
