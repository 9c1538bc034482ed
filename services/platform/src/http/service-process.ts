import { identityKeyring, type IdentitySecret } from '../identity/identity-headers.js';
import 'reflect-metadata';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/event-bus.port.js';
import { createEventBus } from '../bus/bus.factory.js';
import type { BaseConfig } from '../config/base.config.js';
import { ConfigError, loadConfig } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { setDatabasePoolSize, setDatabasePoolWait, setDatabaseRouting } from '../database/database.js';
import { waitForPostgres } from '../startup/wait-for.js';
import { closeOnSignal } from './bootstrap.js';

export interface ServiceProcessContext<Config extends BaseConfig> {
  config: Config;
  logger: Logger;
  bus: EventBus;
  databaseUrl: string;
  identitySecret: IdentitySecret;
}

/** What a started service hands back: how to stop it. */
export interface Stoppable {
  close(): Promise<void>;
}

/**
 * The `main` of a service running as its own process (compose, Kubernetes,
 * `npm run start:services`): validated configuration (exit 78 with every problem named), JSON
 * logs, the database pool size (DATABASE_POOL_SIZE), a wait for Postgres and NATS (up to STARTUP_WAIT_SECONDS), the event bus, then the
 * service; on SIGTERM the service drains before the bus closes.
 */
export function runServiceProcess<Config extends BaseConfig>(
  name: string,
  configClass: new () => Config,
  start: (context: ServiceProcessContext<Config>) => Promise<Stoppable>,
): void {
  const main = async () => {
    const config = loadConfig(configClass);
    if (!config.DATABASE_URL || !config.INTERNAL_SECRET) {
      throw new ConfigError([
        ...(config.DATABASE_URL ? [] : [`DATABASE_URL: is required for the ${name} service`]),
        ...(config.INTERNAL_SECRET ? [] : [`INTERNAL_SECRET: is required for the ${name} service`]),
      ]);
    }
    const logger = createLogger(name, config.LOG_LEVEL);
    setDatabasePoolSize(config.DATABASE_POOL_SIZE);
    setDatabasePoolWait(config.DATABASE_POOL_WAIT_SECONDS * 1000);
    setDatabaseRouting({ poolMode: config.DATABASE_POOL_MODE, readUrl: config.DATABASE_READ_URL, readYourWritesMs: config.DATABASE_READ_YOUR_WRITES_SECONDS * 1000 });
    const waitMs = config.STARTUP_WAIT_SECONDS * 1000;
    await waitForPostgres(config.DATABASE_URL, { timeoutMs: waitMs, logger });
    const bus = await createEventBus({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name, logger, waitMs, stream: config.streamOptions() });
    const service = await start({ config, logger, bus, databaseUrl: config.DATABASE_URL, identitySecret: identityKeyring(config.INTERNAL_SECRET, config.INTERNAL_SECRET_ACCEPTED) });
    closeOnSignal(logger, config.SHUTDOWN_GRACE_SECONDS, [() => service.close(), () => bus.close()]);
  };
  main().catch((err: unknown) => {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    console.error(err);
    process.exit(1);
  });
}
