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
const { startAuthService } = await load('services/auth/dist/index.js');
const { createGateway, GatewayConfig } = await load('gateway/dist/index.js');

let config;
try {
  config = platform.loadConfig(GatewayConfig);
} catch (err) {
  if (err instanceof platform.ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  throw err;
}
const logger = platform.createLogger('timeliner', config.LOG_LEVEL);
const dataDir = path.resolve(root, config.DATA_DIR);

const embedded = config.DATABASE_URL ? undefined : await platform.startEmbeddedPostgres(dataDir, logger);
const databaseUrl = config.DATABASE_URL ?? embedded.url;
if (!config.NATS_URL) logger.info('NATS_URL not set: using the in-process event bus (all services in this process)');
const bus = await platform.createEventBus({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, logger });
const identitySecret = config.INTERNAL_SECRET ?? randomBytes(32).toString('hex');

const services = {};
const running = [];
const auth = await startAuthService({ databaseUrl, bus, logger: platform.createLogger('auth', config.LOG_LEVEL), identitySecret, port: 0, host: '127.0.0.1' });
services.auth = auth.url;
running.push(auth);

const gateway = await createGateway({
  config,
  logger: platform.createLogger('gateway', config.LOG_LEVEL),
  bus,
  services,
  identitySecret,
  webDist: path.resolve(root, config.WEB_DIST),
});
await gateway.listen({ port: config.PORT, host: config.HOST });

const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
logger.info({ seconds: Number(process.uptime().toFixed(2)), dataDir, database: embedded ? 'embedded' : 'DATABASE_URL' }, 'ready');
console.log(`\n  Timeliner is running at http://${shownHost}:${config.PORT}\n`);

platform.closeOnSignal(logger, config.SHUTDOWN_GRACE_SECONDS, [
  () => gateway.close(),
  ...running.map((s) => () => s.close()),
  () => bus.close(),
  ...(embedded ? [() => embedded.stop()] : []),
]);
