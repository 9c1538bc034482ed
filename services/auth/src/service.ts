import type { Logger } from 'pino';
import { consumeEvents, createServiceApp, databaseHealthCheck, type EventBus, openDatabase, OutboxRelay, serveRpc, listenService, type RunningService, type IdentitySecret } from '@timeliner/platform';
import { EventWriter } from '@timeliner/platform';
import { AuthRpc } from '@timeliner/proto';
import { AuthModule } from './auth.module.js';
import { schema } from './schema.js';
import { SessionVerifier } from './sessions/session-verifier.js';
import { RateLimiter } from './security/rate-limiter.js';
import { contentCountEventHandlers } from './counts/content-count-events.js';
import { followCountEventHandlers } from './users/follow-count-events.js';
import { UserLookup } from './users/user-lookup.js';

export interface AuthServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
}

const HOUR = 60 * 60 * 1000;

/** Consumer group of this service on the event stream: replicas share it. */
export const CONSUMER_GROUP = 'auth';

/** Every event this service's consumer group handles: one handler per event type. */
export const authEventHandlers = [...followCountEventHandlers, ...contentCountEventHandlers];

/**
 * Starts the auth service: its schema and migrations, the outbox relay, the responders the
 * gateway (session verification) and other services (user lookup by e-mail) ask, the consumer
 * that keeps profile counts from other services' events, and the HTTP API. Used by the
 * standalone process and by the single-process mode alike.
 */
export async function startAuthService(options: AuthServiceOptions): Promise<RunningService> {
  const { logger, bus } = options;
  const dataSource = await openDatabase({ url: options.databaseUrl, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const relay = new OutboxRelay(dataSource, bus, { logger });
  relay.start();
  const events = new EventWriter(relay);

  const verifier = new SessionVerifier(dataSource);
  const lookup = new UserLookup(dataSource);
  const responders = [
    await serveRpc(bus, AuthRpc.VerifySession, 'auth', async (request) => verifier.verify(request.tokenHash)),
    await serveRpc(bus, AuthRpc.LookupUser, 'auth', async (request) => lookup.byEmail(request.email)),
  ];
  // Profile counts kept from other services' events: follows, likes and posts (social), timelines.
  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, authEventHandlers);

  const limiter = new RateLimiter(dataSource);
  const housekeeping = setInterval(() => {
    void Promise.all([verifier.prune(), limiter.prune()]).catch((err: unknown) => logger.warn({ err }, 'housekeeping failed'));
  }, HOUR);
  housekeeping.unref();

  const app = await createServiceApp({
    name: 'auth',
    module: AuthModule.forRoot({ dataSource, events }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: { database: databaseHealthCheck(dataSource), bus: () => bus.isHealthy() },
  });
  const url = await listenService(app, { name: 'auth', port: options.port, host: options.host, logger });

  return {
    app,
    url,
    async close() {
      clearInterval(housekeeping);
      await app.close();
      for (const responder of responders) await responder.unsubscribe();
      await consumer.unsubscribe();
      await relay.stop();
      await dataSource.destroy();
    },
  };
}
