import 'reflect-metadata';
import { closeOnSignal, ConfigError, createEventBus, createLogger, loadConfig } from '@timeliner/platform';
import { SocialConfig } from './social.config.js';
import { startSocialService } from './service.js';

/** The social service as its own process (compose, Kubernetes, `npm run start:services`). */
async function main() {
  const config = loadConfig(SocialConfig);
  const logger = createLogger('social', config.LOG_LEVEL);
  if (!config.DATABASE_URL || !config.INTERNAL_SECRET) {
    throw new ConfigError([
      ...(config.DATABASE_URL ? [] : ['DATABASE_URL: is required for the social service']),
      ...(config.INTERNAL_SECRET ? [] : ['INTERNAL_SECRET: is required for the social service']),
    ]);
  }
  const bus = await createEventBus({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, logger });
  const service = await startSocialService({
    databaseUrl: config.DATABASE_URL,
    bus,
    logger,
    identitySecret: config.INTERNAL_SECRET,
    port: config.PORT,
    host: config.HOST,
    timelinesTimeoutMs: config.TIMELINES_TIMEOUT_MS,
  });
  closeOnSignal(logger, config.SHUTDOWN_GRACE_SECONDS, [() => service.close(), () => bus.close()]);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  console.error(err);
  process.exit(1);
});
