import 'reflect-metadata';
import { closeOnSignal, ConfigError, createEventBus, createLogger, loadConfig } from '@timeliner/platform';
import { GatewayConfig } from './gateway.config.js';
import { createGateway } from './gateway.js';
import { RouteTable } from './routes/route-table.js';

/** The gateway as its own process, in front of services running as theirs. */
async function main(): Promise<void> {
  const config = loadConfig(GatewayConfig);
  const services = config.serviceUrls();
  const problems = [
    ...(config.INTERNAL_SECRET ? [] : ['INTERNAL_SECRET: is required (the services verify the identity the gateway signs with it)']),
    ...new RouteTable()
      .services()
      .filter((name) => !services[name])
      .map((name) => `${name.toUpperCase()}_SERVICE_URL: is required (the route table forwards to the ${name} service)`),
  ];
  if (problems.length > 0 || !config.INTERNAL_SECRET) throw new ConfigError(problems);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  // NATS may not be up yet (a first deploy, an infrastructure restart): wait for it, then start.
  const bus = await createEventBus({ natsUrl: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'gateway', logger, waitMs: config.STARTUP_WAIT_SECONDS * 1000, stream: config.streamOptions() });
  const app = await createGateway({
    config,
    logger,
    bus,
    services,
    identitySecret: config.INTERNAL_SECRET,
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT, services }, 'gateway listening');
  closeOnSignal(logger, config.SHUTDOWN_GRACE_SECONDS, [() => app.close(), () => bus.close()]);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  // 78 (EX_CONFIG): a configuration problem, not a crash worth restarting for.
  process.exit(error instanceof ConfigError ? 78 : 1);
});
