// The whole product in one process on embedded defaults: `npm start`.
//
// Postgres from DATABASE_URL, else an embedded PostgreSQL under DATA_DIR (data survives a
// restart); NATS from NATS_URL, else an in-process bus; storage from S3_ENDPOINT, else a
// directory under DATA_DIR. Every service still runs its own HTTP app (on a loopback port) behind
// the gateway, so requests take the same path as in the distributed deployment.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const load = (p) => import(pathToFileURL(path.join(root, p)).href);

const platform = await load('services/platform/dist/index.js');
const { startAuthService, AuthConfig, secretKeyFrom } = await load('services/auth/dist/index.js');
const { startTimelinesService, TimelinesConfig } = await load('services/timelines/dist/index.js');
const { startSocialService, SocialConfig } = await load('services/social/dist/index.js');
const { startSearchService } = await load('services/search/dist/index.js');
const { startNotificationsService, NotificationsConfig, loadOrCreateVapidKeys } = await load('services/notifications/dist/index.js');
const { startMediaService, MediaConfig, mediaSchema } = await load('services/media/dist/index.js');
const { createGateway, GatewayConfig, internalUrlOf } = await load('gateway/dist/index.js');

let config, authConfig, timelinesConfig, socialConfig, notificationsConfig, mediaConfig;
try {
  config = platform.loadConfig(GatewayConfig);
  authConfig = platform.loadConfig(AuthConfig);
  timelinesConfig = platform.loadConfig(TimelinesConfig);
  socialConfig = platform.loadConfig(SocialConfig);
  notificationsConfig = platform.loadConfig(NotificationsConfig);
  mediaConfig = platform.loadConfig(MediaConfig);
} catch (err) {
  if (err instanceof platform.ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  throw err;
}
const logger = platform.createLogger('timeliner', config.LOG_LEVEL);
platform.setDatabasePoolWait(config.DATABASE_POOL_WAIT_SECONDS * 1000);
const dataDir = path.resolve(root, config.DATA_DIR);

const embedded = config.DATABASE_URL ? undefined : await platform.startEmbeddedPostgres(dataDir, logger);
const databaseUrl = config.DATABASE_URL ?? embedded.url;
if (!config.NATS_URL) logger.info('NATS_URL not set: using the in-process event bus (all services in this process)');
const bus = await platform.createEventBus({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, logger, stream: config.streamOptions() });
const identitySecret = config.INTERNAL_SECRET ?? randomBytes(32).toString('hex');

const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
// Links in e-mails (invitations) lead to PUBLIC_ORIGIN; unset, to the address each request came in
// on (the app used at 127.0.0.1 gets 127.0.0.1 links, not localhost).
const publicOrigin = config.PUBLIC_ORIGIN;
const serviceLogger = (name) => platform.createLogger(name, config.LOG_LEVEL);
// SMTP with MAIL_URL, else .eml files under DATA_DIR/mail.
const mail = platform.createMailSender({ mailUrl: timelinesConfig.MAIL_URL, from: timelinesConfig.MAIL_FROM, dataDir, logger: serviceLogger('mail') });

// Storage: S3 (MinIO) when S3_ENDPOINT is set, else a directory under DATA_DIR. Work queue
// (media processing): JetStream with NATS_URL, else in memory (the worker re-queues unfinished
// media from the database on start).
const storage = await platform.createObjectStorage({ ...mediaConfig, DATA_DIR: dataDir });
const workQueue = await platform.createWorkQueue({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'media', logger: serviceLogger('work-queue'), stream: config.streamOptions() });

// Each service on its own loopback port, in dependency order: timelines asks auth (user lookup),
// social and media ask timelines (access checks).
const services = {};
const running = [];
const common = { databaseUrl, bus, identitySecret, port: 0, host: '127.0.0.1' };
const start = async (name, starter, options = {}) => {
  const service = await starter({ ...common, logger: serviceLogger(name), ...options });
  services[name] = service.url;
  running.push(service);
};
await start('auth', startAuthService, {
  mail, publicOrigin, totpSecretKey: secretKeyFrom(authConfig.TOTP_SECRET_KEY),
  deletionGraceMs: authConfig.ACCOUNT_DELETION_GRACE_SECONDS * 1000, purgeIntervalMs: authConfig.ACCOUNT_PURGE_INTERVAL_SECONDS * 1000,
});
await start('timelines', startTimelinesService, { mail, publicOrigin, invitationMailLimits: timelinesConfig.invitationMailLimits() });
await start('social', startSocialService, { timelinesTimeoutMs: socialConfig.TIMELINES_TIMEOUT_MS });
await start('search', startSearchService);
// Web Push keys from VAPID_* when set, else generated once and kept under DATA_DIR/notifications.
const vapid = notificationsConfig.VAPID_PUBLIC_KEY && notificationsConfig.VAPID_PRIVATE_KEY
  ? { publicKey: notificationsConfig.VAPID_PUBLIC_KEY, privateKey: notificationsConfig.VAPID_PRIVATE_KEY, subject: notificationsConfig.VAPID_SUBJECT }
  : await loadOrCreateVapidKeys(dataDir, notificationsConfig.VAPID_SUBJECT);
await start('notifications', startNotificationsService, { workQueue, vapid, pushAddresses: notificationsConfig.pushAddresses(), pushSubscriptionsPerPerson: notificationsConfig.PUSH_SUBSCRIPTIONS_PER_PERSON });
await start('media', startMediaService, {
  storage,
  workQueue,
  timelinesTimeoutMs: mediaConfig.TIMELINES_TIMEOUT_MS,
  sweepIntervalMs: mediaConfig.UPLOAD_SWEEP_MINUTES * 60_000,
  // Storage quota, failed originals' retention, upload expiry, exports per person.
  ...mediaConfig.storageOptions(),
  processingFairness: mediaConfig.processingFairness(),
});

// The media processing worker, in this process too: its own small pool on the media schema, the
// same bus, storage and work queue. It stops with the services.
const { startMediaWorker } = await load('services/media/dist/worker-runtime.js');
const { defaultProcessingConcurrency } = await load('services/media/dist/worker-concurrency.js');
// As many jobs at once as the machine's cores and memory allow, unless MEDIA_WORKER_CONCURRENCY says.
const workerConcurrency = Number(process.env.MEDIA_WORKER_CONCURRENCY) || defaultProcessingConcurrency();
const workerDataSource = await platform.openDatabase({ url: databaseUrl, schema: mediaSchema.name, entities: mediaSchema.entities, migrations: mediaSchema.migrations, poolSize: 4 + workerConcurrency });
const worker = await startMediaWorker({ dataSource: workerDataSource, bus, storage, queue: workQueue, logger: serviceLogger('media-worker'), concurrency: workerConcurrency, limits: mediaConfig.processingLimits(), perPerson: mediaConfig.MEDIA_PROCESSING_PER_PERSON });
running.push({ close: async () => { await worker.close(); await workerDataSource.destroy(); } });

// `npm run read-model -- rebuild <service>` reaches the in-process bus through a socket under
// DATA_DIR (with NATS_URL it goes through NATS, as in a cluster).
if (!config.NATS_URL) {
  const readModels = await platform.serveReadModelSocket(bus, path.join(dataDir, platform.READ_MODEL_SOCKET), serviceLogger('read-model'));
  running.push({ close: () => readModels.close() });
}

const gateway = await createGateway({
  config,
  logger: platform.createLogger('gateway', config.LOG_LEVEL),
  bus,
  services,
  identitySecret,
  webDist: path.resolve(root, config.WEB_DIST),
});
await gateway.listen({ port: config.PORT, host: config.HOST });
// The port it listens on (PORT=0 asks the system for a free one).
const publicPort = gateway.getHttpServer().address()?.port ?? config.PORT;

logger.info({ seconds: Number(process.uptime().toFixed(2)), dataDir, database: embedded ? 'embedded' : 'DATABASE_URL', probes: internalUrlOf(gateway) }, 'ready');
console.log(`\n  Timeliner is running at http://${shownHost}:${publicPort}\n  Invitation links lead to ${publicOrigin ?? 'the address the app is opened at (PUBLIC_ORIGIN sets one)'}\n`);
// Probes and metrics are never on the public port: on the internal one, loopback unless INTERNAL_HOST says otherwise.
console.log(`  Probes and metrics (this machine only): ${internalUrlOf(gateway)}/health/ready, ${internalUrlOf(gateway)}/metrics\n`);

// The gateway first (no new requests), then the services in reverse start order, each finishing
// what it has in flight, then what they share.
platform.closeOnSignal(logger, config.SHUTDOWN_GRACE_SECONDS, [
  () => gateway.close(),
  ...running.reverse().map((s) => () => s.close()),
  () => mail.close(),
  () => workQueue.close(),
  () => bus.close(),
  ...(embedded ? [() => embedded.stop()] : []),
]);
