import type { Agent } from 'node:https';
import type { Logger } from 'pino';
import { consumeEvents, createServiceApp, databaseHealthCheck, type EventBus, EventWriter, listenService, openDatabase, OutboxRelay, type RunningService, type Subscription, type WorkQueue, type IdentitySecret } from '@timeliner/platform';
import { NotificationJobs } from '@timeliner/proto';
import { deliveryHandlers } from './live/notification-delivery.js';
import { OutboxNotificationOutlet } from './live/notification-outlet.js';
import { mediaEventHandlers } from './media/media-events.js';
import { NotificationsModule } from './notifications.module.js';
import { Notifier } from './notifications/notifier.js';
import { PostCommit } from './post-commit.js';
import { PushDispatcher } from './push/push-dispatcher.js';
import { PUSH_JOB_POLICY, PushSender } from './push/push-sender.js';
import type { VapidKeys } from './push/vapid.js';
import { schema } from './schema.js';
import { socialEventHandlers, versionedSocialEventHandlers } from './social/social-events.js';
import { timelineEventHandlers } from './timelines/timeline-events.js';
import { userEventHandlers } from './users/user-events.js';

export interface NotificationsServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  /** Carries Web Push deliveries (JetStream work queue, or in-process in the single-process mode). */
  workQueue: WorkQueue;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
  vapid: VapidKeys;
  /** Tests only: accept push endpoints on loopback. */
  allowLoopbackPush?: boolean;
  /** Tests only: the HTTPS agent for push services (one that trusts a local push service). */
  pushAgent?: Agent;
  /** Work-queue policy of push deliveries (tests shorten the back-off). */
  pushPolicy?: Partial<typeof PUSH_JOB_POLICY>;
}

/**
 * Consumer groups of this service on the event stream (replicas share them): events in order,
 * likes and follows several at once, and the service's own `NotificationChanged` events, which
 * tell sockets and queue pushes.
 */
export const CONSUMER_GROUP = 'notifications';
export const VERSIONED_CONSUMER_GROUP = 'notifications-versioned';
export const DELIVERY_CONSUMER_GROUP = 'notifications-delivery';
/** Likes and follows handled at once per replica; their versions make the order irrelevant. */
const VERSIONED_CONCURRENCY = 4;
/** Deliveries handled at once per replica (one per recipient at a time). */
const DELIVERY_CONCURRENCY = 4;

/**
 * Starts the notifications service: its schema, the consumers that turn other services' events
 * into notifications (and keep the read models it needs), its outbox relay and the consumer of
 * its own events that tells sockets and queues pushes, the push worker, and the HTTP API.
 */
export async function startNotificationsService(options: NotificationsServiceOptions): Promise<RunningService> {
  const { logger, bus, workQueue } = options;
  const dataSource = await openDatabase({ url: options.databaseUrl, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const relay = new OutboxRelay(dataSource, bus, { logger });
  relay.start();
  const outlet = new OutboxNotificationOutlet(new EventWriter(relay), PostCommit.install(dataSource, logger));
  const notifier = new Notifier(outlet);

  const sender = new PushSender(dataSource, options.vapid, logger, options.pushAgent);
  const pushWorker: Subscription = await workQueue.process(NotificationJobs.DeliverPush, { ...PUSH_JOB_POLICY, ...options.pushPolicy }, {
    run: async (job) => {
      const outcome = await sender.deliver(job);
      logger.debug({ subscriptionId: job.payload.subscriptionId, outcome, attempt: job.attempt }, 'push delivery');
    },
    failed: async (job, error) => {
      logger.warn({ subscriptionId: job.payload.subscriptionId, err: error }, 'push given up');
    },
  });

  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, [
    ...userEventHandlers,
    ...timelineEventHandlers(notifier),
    ...socialEventHandlers(notifier),
    ...mediaEventHandlers(notifier),
  ]);
  const versionedConsumer = await consumeEvents(bus, { durable: VERSIONED_CONSUMER_GROUP, dataSource, logger, concurrency: VERSIONED_CONCURRENCY }, versionedSocialEventHandlers(notifier));
  const deliveryConsumer = await consumeEvents(
    bus,
    { durable: DELIVERY_CONSUMER_GROUP, dataSource, logger, concurrency: DELIVERY_CONCURRENCY },
    deliveryHandlers(bus, new PushDispatcher(workQueue), logger),
  );

  const app = await createServiceApp({
    name: 'notifications',
    module: NotificationsModule.forRoot({ dataSource, outlet, vapidPublicKey: options.vapid.publicKey, endpoints: { allowLoopback: options.allowLoopbackPush ?? false } }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: { database: databaseHealthCheck(dataSource), bus: () => bus.isHealthy(), queue: () => workQueue.isHealthy() },
  });
  const url = await listenService(app, { name: 'notifications', port: options.port, host: options.host, logger });

  return {
    app,
    url,
    async close() {
      await app.close();
      await consumer.unsubscribe();
      await versionedConsumer.unsubscribe();
      await relay.stop();
      await deliveryConsumer.unsubscribe();
      await pushWorker.unsubscribe();
      await dataSource.destroy();
    },
  };
}
