import type { Logger } from 'pino';
import { consumeEvents, createMailSender, createServiceApp, databaseHealthCheck, type EventBus, type MailSender, openDatabase, OutboxRelay, serveReadModelRebuild, serveRpc, listenService, type RunningService, type IdentitySecret, personFilterCopyHandlers } from '@timeliner/platform';
import { EventWriter } from '@timeliner/platform';
import { AuthRpc } from '@timeliner/proto';
import { AuthModule } from './auth.module.js';
import { PersonalDataRepository } from './personal-data/personal-data.repository.js';
import { servePersonalDataOfAuth } from './personal-data/personal-data.responder.js';
import { schema } from './schema.js';
import { SessionVerifier } from './sessions/session-verifier.js';
import { SessionRepository } from './sessions/session.repository.js';
import { RateLimitRepository } from './security/rate-limit.repository.js';
import { RateLimiter } from './security/rate-limiter.js';
import { contentCountEventHandlers } from './counts/content-count-events.js';
import { followCountEventHandlers } from './users/follow-count-events.js';
import { UserLookup } from './users/user-lookup.js';
import { UserRepository } from './users/user.repository.js';
import { servePeopleReplay } from './users/people-replay.responder.js';
import { serveAccountDeletionsReplay } from './deletion/account-deletion-replay.responder.js';
import { followCountsReadModel } from './users/follow-count-rebuild.js';
import { SessionRevoker } from './sessions/session-revoker.js';
import { suspensionEventHandlers } from './suspensions/suspensions.js';
import { PasskeyRepository } from './passkeys/passkey.repository.js';
import { TwoStepRepository } from './two-step/two-step.repository.js';
import { AccountDeletionService } from './deletion/account-deletion.service.js';
import { purgedAccountHandlers } from './deletion/account-purge.js';

export interface AuthServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
  /** Account e-mails (reset links, confirmations, notices); unset, `.eml` files under `.data/mail`. */
  mail?: MailSender;
  /** Where the web app is reached, for links in e-mails; unset, the origin each request came in on. */
  publicOrigin?: string | undefined;
  /** Seals authenticator secrets at rest (TOTP_SECRET_KEY, 32 bytes). */
  totpSecretKey?: Buffer | undefined;
  /** The time authenticator codes are checked against; tests fix it. */
  clock?: () => number;
  /** How often accounts at the end of their deletion grace period are purged; default ten minutes. */
  purgeIntervalMs?: number;
  /** How long a deletion the person asked for waits before everything goes; default 30 days. */
  deletionGraceMs?: number;
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

  const ownMail = options.mail ? undefined : createMailSender({ dataDir: '.data', logger });
  const mail = options.mail ?? ownMail!;

  const users = new UserRepository(dataSource);
  const verifier = new SessionVerifier(new SessionRepository(dataSource));
  const lookup = new UserLookup(users);
  const responders = [
    await serveRpc(bus, AuthRpc.VerifySession, 'auth', async (request) => verifier.verify(request.tokenHash)),
    await serveRpc(bus, AuthRpc.LookupUser, 'auth', async (request) => lookup.byEmail(request.email)),
    await servePeopleReplay(bus, users),
    // The moderation copies' `account_deletion` rows rebuild from this (read-model rebuild <service> --model account-deletions).
    await serveAccountDeletionsReplay(bus, dataSource),
    // `npm run read-model -- rebuild auth`: the profile counts rebuilt from the social service while serving.
    await serveReadModelRebuild(bus, { service: 'auth', dataSource, logger, models: [followCountsReadModel(bus)] }),
    await servePersonalDataOfAuth(bus, new PersonalDataRepository(dataSource)),
  ];
  // Profile counts kept from other services' events: follows, likes and posts (social), timelines.
  // and the moderators' suspensions (sessions ended at once, sign-in refused).
  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, [...authEventHandlers, ...personFilterCopyHandlers, ...suspensionEventHandlers(new SessionRevoker(new SessionRepository(dataSource), events)), ...purgedAccountHandlers]);

  const limiter = new RateLimiter(new RateLimitRepository(dataSource));
  const twoStep = new TwoStepRepository(dataSource);
  const passkeys = new PasskeyRepository(dataSource);
  const housekeeping = setInterval(() => {
    void Promise.all([verifier.prune(), limiter.prune(), twoStep.deleteStale(), passkeys.deleteExpiredChallenges()]).catch((err: unknown) => logger.warn({ err }, 'housekeeping failed'));
  }, HOUR);
  housekeeping.unref();

  const app = await createServiceApp({
    name: 'auth',
    module: AuthModule.forRoot({ dataSource, events, mail, logger, publicOrigin: options.publicOrigin, totpSecretKey: options.totpSecretKey, ...(options.clock ? { clock: options.clock } : {}), ...(options.deletionGraceMs ? { deletionGraceMs: options.deletionGraceMs } : {}) }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: { database: databaseHealthCheck(dataSource), bus: () => bus.isHealthy() },
  });
  const url = await listenService(app, { name: 'auth', port: options.port, host: options.host, logger });
  // Accounts whose grace period after a deletion request is over go for good (deletion/account-purge.ts).
  const deletions = app.get(AccountDeletionService);
  const purgeDue = () => void deletions.purgeDue().catch((err: unknown) => logger.warn({ err }, 'deleting accounts at the end of their grace period failed; trying again later'));
  const purging = setInterval(purgeDue, options.purgeIntervalMs ?? 10 * 60_000);
  purging.unref();
  purgeDue();

  return {
    app,
    url,
    async close() {
      clearInterval(housekeeping);
      clearInterval(purging);
      await app.close();
      for (const responder of responders) await responder.unsubscribe();
      await consumer.unsubscribe();
      await relay.stop();
      await dataSource.destroy();
      await ownMail?.close();
    },
  };
}
