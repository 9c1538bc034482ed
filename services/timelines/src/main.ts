import 'reflect-metadata';
import { closeOnSignal, ConfigError, createEventBus, createLogger, createMailSender, loadConfig } from '@timeliner/platform';
import { startTimelinesService } from './service.js';
import { TimelinesConfig } from './timelines.config.js';

/** The timelines service as its own process (compose, Kubernetes, `npm run start:services`). */
async function main() {
  const config = loadConfig(TimelinesConfig);
  const logger = createLogger('timelines', config.LOG_LEVEL);
  if (!config.DATABASE_URL || !config.INTERNAL_SECRET) {
    throw new ConfigError([
      ...(config.DATABASE_URL ? [] : ['DATABASE_URL: is required for the timelines service']),
      ...(config.INTERNAL_SECRET ? [] : ['INTERNAL_SECRET: is required for the timelines service']),
    ]);
  }
  const bus = await createEventBus({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'timelines', logger });
  const mail = createMailSender({ mailUrl: config.MAIL_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger });
  const service = await startTimelinesService({
    databaseUrl: config.DATABASE_URL,
    bus,
    logger,
    identitySecret: config.INTERNAL_SECRET,
    port: config.PORT,
    host: config.HOST,
    mail,
    publicOrigin: config.PUBLIC_ORIGIN,
  });
  closeOnSignal(logger, config.SHUTDOWN_GRACE_SECONDS, [() => service.close(), () => bus.close(), () => mail.close()]);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  console.error(err);
  process.exit(1);
});
