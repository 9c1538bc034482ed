import type { AgentOptions } from 'node:https';
import type { Logger } from 'pino';
import { accountDeletionsCopyReadModel, consumeEvents, createServiceApp, serveReadModelRebuild, databaseHealthCheck, type EventBus, EventWriter, listenService, openDatabase, OutboundClient, type OutboundAddressPolicy, OutboxRelay, type RunningService, type Subscription, type WorkQueue, type IdentitySecret } from '@timeliner/platform';
import { NotificationJobs } from '@timeliner/proto';
import { deliveryHandlers } from './live/notification-delivery.js';
import { OutboxNotificationOutlet } from './live/notification-outlet.js';
import { mediaEventHandlers } from './media/media-events.js';
import { NotificationsModule } from './notifications.module.js';
import { NotificationRepository } from './notifications/notification.repository.js';
import { Notifier } from './notifications/notifier.js';
import { pushRecheck } from './push/push-recheck.js';
import { PreferenceRepository } from './preferences/preference.repository.js';
import { PushDispatcher } from './push/push-dispatcher.js';
import { DEFAULT_PUSH_LIMITS, PushGate, type PushLimits } from './push/push-gate.js';
import { PUSH_JOB_POLICY, PUSH_SEND_TIMEOUT_MS, PushSender } from './push/push-sender.js';
import { PushSubscriptionRepository } from './push/push-subscription.repository.js';
import type { VapidKeys } from './push/vapid.js';
import { schema } from './schema.js';
import { commentControlEventHandlers } from './social/comment-control-events.js';
import { followRequestEventHandlers } from './social/follow-request-events.js';
import { personFilterEventHandlers } from './social/person-filter-events.js';
import { moderationEventHandlers } from './social/moderation-events.js';
import { socialEventHandlers, versionedSocialEventHandlers } from './social/social-events.js';
import { timelineEventHandlers } from './timelines/timeline-events.js';
import { membersReadModel, timelinesReadModel } from './timelines/timeline-rebuild.js';
import { videosReadModel } from './media/video-rebuild.js';
import { moderationReadModel } from './social/moderation-rebuild.js';
import { PersonalDataRepository } from './personal-data/personal-data.repository.js';
import { servePersonalDataOfNotifications } from './personal-data/personal-data.responder.js';
import { userEventHandlers } from './users/user-events.js';
import { accountDeletionHandlers } from './users/account-deletion.js';
import { peopleReadModel } from './users/user-rebuild.js';

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
  /**
   * Which push endpoints may be reached: `allowedHosts` (PUSH_ALLOWED_HOSTS; unset: any public
   * host) and, for tests and development only, `allowedPrivateRanges` opened although not public
   * (PUSH_ALLOW_PRIVATE_ADDRESSES). Loopback, private, link-local and other internal addresses are
   * refused at subscription and again when a push connects.
   */
  pushAddresses?: OutboundAddressPolicy;
  /** Subscriptions kept per person (PUSH_SUBSCRIPTIONS_PER_PERSON, default 10); one more drops the oldest. */
  pushSubscriptionsPerPerson?: number;
  /** Tests only: certificate authorities trusted for push services instead of the system's (a local push service's). */
  pushCa?: AgentOptions['ca'];
  /** Sends at once per person and per push service host, and how many may wait (see PushGate). */
  pushLimits?: Partial<PushLimits>;
  /** Time limit of one exchange with a push service; default 5 s. */
  pushTimeoutMs?: number;
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
  const outlet = new OutboxNotificationOutlet(new EventWriter(relay));
  const notifier = new Notifier(outlet, new PreferenceRepository(dataSource));
  const pushSubscriptions = new PushSubscriptionRepository(dataSource);

  const pushAddresses = options.pushAddresses ?? {};
  const pushClient = new OutboundClient({ ...pushAddresses, protocols: ['https:'] }, { ...(options.pushCa ? { ca: options.pushCa } : {}) });
  if (pushClient.guard.openedPrivateRanges.length > 0) {
    logger.warn(
      { ranges: pushClient.guard.openedPrivateRanges },
      'PUSH_ALLOW_PRIVATE_ADDRESSES IS SET: push endpoints may reach these internal addresses. For tests and development only; never set it in production',
    );
  }
  const pushSubscriptionsPerPerson = options.pushSubscriptionsPerPerson ?? 10;
  const gate = new PushGate({ ...DEFAULT_PUSH_LIMITS, ...options.pushLimits });
  const sender = new PushSender(pushSubscriptions, options.vapid, logger, pushClient, gate, options.pushTimeoutMs ?? PUSH_SEND_TIMEOUT_MS, pushRecheck(dataSource));
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
    ...userEventHandlers(notifier),
    ...timelineEventHandlers(notifier),
    ...socialEventHandlers(notifier),
    ...moderationEventHandlers(notifier),
    ...personFilterEventHandlers(notifier),
    ...followRequestEventHandlers(notifier),
    ...commentControlEventHandlers(notifier),
    ...mediaEventHandlers(notifier),
    ...accountDeletionHandlers,
  ]);
  // `npm run read-model -- rebuild notifications`: the copies rebuilt from their producers while serving.
  const rebuild = await serveReadModelRebuild(bus, { service: 'notifications', dataSource, logger, models: [timelinesReadModel(bus, notifier), peopleReadModel(bus), membersReadModel(bus, notifier), videosReadModel(bus, notifier), moderationReadModel(bus, notifier), accountDeletionsCopyReadModel(bus)] });
  // The person's own data, for their data archive (media worker).
  const personalData = await servePersonalDataOfNotifications(bus, new PersonalDataRepository(dataSource));
  const versionedConsumer = await consumeEvents(bus, { durable: VERSIONED_CONSUMER_GROUP, dataSource, logger, concurrency: VERSIONED_CONCURRENCY }, versionedSocialEventHandlers(notifier));
  const deliveryConsumer = await consumeEvents(
    bus,
    { durable: DELIVERY_CONSUMER_GROUP, dataSource, logger, concurrency: DELIVERY_CONCURRENCY },
    deliveryHandlers(bus, new NotificationRepository(dataSource), new PushDispatcher(workQueue, pushSubscriptions, pushSubscriptionsPerPerson), logger),
  );

  const app = await createServiceApp({
    name: 'notifications',
    module: NotificationsModule.forRoot({ dataSource, outlet, vapidPublicKey: options.vapid.publicKey, pushSubscriptions: { guard: pushClient.guard, perPerson: pushSubscriptionsPerPerson } }),
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
      await rebuild.unsubscribe();
      await personalData.unsubscribe();
      await consumer.unsubscribe();
      await versionedConsumer.unsubscribe();
      await relay.stop();
      await deliveryConsumer.unsubscribe();
      await pushWorker.unsubscribe();
      pushClient.close();
      await dataSource.destroy();
    },
  };
}
