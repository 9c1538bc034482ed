import { createWorkQueue, runServiceProcess } from '@timeliner/platform';
import { NotificationsConfig } from './notifications.config.js';
import { loadOrCreateVapidKeys } from './push/vapid.js';
import { startNotificationsService } from './service.js';

/** The notifications service as its own process (API, event consumer and push worker). */
runServiceProcess('notifications', NotificationsConfig, async ({ config, logger, bus, databaseUrl, identitySecret }) => {
  const vapid =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject: config.VAPID_SUBJECT }
      : await loadOrCreateVapidKeys(config.DATA_DIR, config.VAPID_SUBJECT);
  if (!config.VAPID_PUBLIC_KEY) logger.warn({ dataDir: config.DATA_DIR }, 'VAPID keys not configured; using keys kept under the data directory (one replica only)');
  const workQueue = await createWorkQueue({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'notifications', logger, stream: config.streamOptions() });
  const service = await startNotificationsService({
    databaseUrl,
    bus,
    workQueue,
    logger,
    identitySecret,
    port: config.PORT,
    host: config.HOST,
    vapid,
    pushAddresses: config.pushAddresses(),
    pushSubscriptionsPerPerson: config.PUSH_SUBSCRIPTIONS_PER_PERSON,
  });
  return {
    async close() {
      await service.close();
      await workQueue.close();
    },
  };
});
