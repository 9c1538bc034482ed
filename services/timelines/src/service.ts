import type { Logger } from 'pino';
import { accountDeletionsCopyReadModel, BusStaffRoles, consumeEvents, createServiceApp, personFilterCopyHandlers, serveReadModelRebuild, databaseHealthCheck, type EventBus, EventWriter, type MailSender, openDatabase, OutboxRelay, listenService, type RunningService, type IdentitySecret, signingKey } from '@timeliner/platform';
import { serveCheckAccess } from './access/check-access.responder.js';
import { accountDeletionHandlers } from './users/account-deletion.js';
import { TimelineAccess } from './access/timeline-access.service.js';
import { schema } from './schema.js';
import { commentEventHandlers } from './timelines/comment-events.js';
import { likeEventHandlers } from './timelines/like-events.js';
import { commentsReadModel, likesReadModel } from './timelines/like-rebuild.js';
import { mediaEventHandlers } from './timelines/media-events.js';
import { altTextsReadModel } from './timelines/media-rebuild.js';
import { moderationReadModel } from './timelines/moderation-rebuild.js';
import { moderationEventHandlers } from './timelines/moderation-events.js';
import { backfillSnapshots } from './timelines/snapshot.js';
import { serveTimelineReplay } from './timelines/replay.responder.js';
import { PersonalDataRepository } from './personal-data/personal-data.repository.js';
import { servePersonalDataOfTimelines } from './personal-data/personal-data.responder.js';
import type { InvitationMailLimits } from './invitations/invitation.service.js';
import { TimelineRepository } from './timelines/timeline.repository.js';
import { TimelinesModule } from './timelines.module.js';
import { UserDirectory } from './users/user-directory.js';
import { UserRepository } from './users/user.repository.js';
import { userEventHandlers } from './users/user-events.js';
import { accountFollowEventHandlers } from './private-accounts/private-accounts.js';
import { peopleReadModel } from './users/user-rebuild.js';

export interface TimelinesServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
  /** Invitation e-mails go out through it (`createMailSender` from the platform). */
  mail: MailSender;
  /** Where the web app is reached, for links in e-mails; unset, the origin each request came in on (through the gateway). */
  publicOrigin?: string | undefined;
  /** Invitation e-mails one person may send per hour and per day; default 20 and 50. */
  invitationMailLimits?: InvitationMailLimits;
  /** How long to wait for the auth service's user lookup; default 1.5 s. */
  lookupTimeoutMs?: number;
  /** How long to wait for the social service's staff-role answer (SocialRpc.StaffRole); default 500 ms, then not staff. */
  staffRoleTimeoutMs?: number;
}

/** Consumer group of this service on the event stream. */
export const CONSUMER_GROUP = 'timelines';

/**
 * Starts the timelines service: its schema and migrations, the outbox relay, the consumers of
 * user and comment events, the access-check responder, and the HTTP API. Used by the standalone
 * process and by the single-process mode alike.
 */
export async function startTimelinesService(options: TimelinesServiceOptions): Promise<RunningService> {
  const { logger, bus } = options;
  const dataSource = await openDatabase({ url: options.databaseUrl, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const relay = new OutboxRelay(dataSource, bus, { logger });
  relay.start();
  const events = new EventWriter(relay);
  const timelines = new TimelineRepository(dataSource);
  // Staff (asked of the social service) see a timeline the moderators took out on its page, read-only.
  const access = new TimelineAccess(timelines, new BusStaffRoles(bus, logger, options.staffRoleTimeoutMs));
  const users = new UserDirectory(new UserRepository(dataSource), bus, logger, options.lookupTimeoutMs !== undefined ? { lookupTimeoutMs: options.lookupTimeoutMs } : {});

  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, [...userEventHandlers, ...commentEventHandlers, ...likeEventHandlers, ...mediaEventHandlers, ...moderationEventHandlers, ...accountFollowEventHandlers, ...personFilterCopyHandlers, ...accountDeletionHandlers]);
  const responder = await serveCheckAccess(bus, access);
  const replay = await serveTimelineReplay(bus, timelines);
  // The person's own data, for their data archive (media worker).
  const personalData = await servePersonalDataOfTimelines(bus, new PersonalDataRepository(dataSource));
  // `npm run read-model -- rebuild timelines`: the copies rebuilt from their producers while serving.
  const rebuild = await serveReadModelRebuild(bus, { service: 'timelines', dataSource, logger, models: [peopleReadModel(bus), likesReadModel(bus), commentsReadModel(bus), altTextsReadModel(bus), moderationReadModel(bus), accountDeletionsCopyReadModel(bus)] });

  const app = await createServiceApp({
    name: 'timelines',
    module: TimelinesModule.forRoot({
      dataSource,
      events,
      access,
      users,
      mail: options.mail,
      logger,
      publicOrigin: options.publicOrigin,
      ...(options.invitationMailLimits ? { invitationMailLimits: options.invitationMailLimits } : {}),
      viewerKeySecret: signingKey(options.identitySecret),
      mediaUrlSecret: options.identitySecret,
    }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: { database: databaseHealthCheck(dataSource), bus: () => bus.isHealthy() },
  });
  const url = await listenService(app, { name: 'timelines', port: options.port, host: options.host, logger });
  // Timelines made before snapshots existed: their first one, in the background.
  const backfill = backfillSnapshots(dataSource, events).then(
    (count) => {
      if (count > 0) logger.info({ count }, 'published the first snapshot of older timelines');
    },
    (error: unknown) => logger.warn({ err: error }, 'snapshot backfill stopped; the next start resumes it'),
  );

  return {
    app,
    url,
    async close() {
      await backfill;
      await app.close();
      await responder.unsubscribe();
      await replay.unsubscribe();
      await personalData.unsubscribe();
      await rebuild.unsubscribe();
      await consumer.unsubscribe();
      await relay.stop();
      await dataSource.destroy();
    },
  };
}
