import type { Logger } from 'pino';
import { accountDeletionsCopyReadModel, BusTimelineAccess, consumeEvents, serveReadModelRebuild, createServiceApp, databaseHealthCheck, type EventBus, openDatabase, OutboxRelay, listenService, type RunningService, type IdentitySecret } from '@timeliner/platform';
import { EventWriter } from '@timeliner/platform';
import { pruneFeedKeys } from './feed-index/feed-keys.js';
import { feedTimelineEventHandlers } from './feed/feed-timeline-events.js';
import { feedTimelinesReadModel } from './feed/feed-timeline-rebuild.js';
import { followEventHandlers, forgetAccount } from './accounts/account-events.js';
import { type PersonUndo, userDeletedHandlers } from './accounts/account-deletion.js';
import { personUndo } from './accounts/person-undo.js';
import { schema } from './schema.js';
import { SocialModule } from './social.module.js';
import { serveTimelineLikesReplay } from './timeline-reactions/timeline-likes-replay.responder.js';
import { serveFollowCountsReplay } from './follows/follow-counts-replay.responder.js';
import { serveModerationReplay } from './moderation/moderation-replay.responder.js';
import { serveStaffRole } from './moderation/staff-role.responder.js';
import { PersonalDataRepository } from './personal-data/personal-data.repository.js';
import { servePersonalDataOfSocial } from './personal-data/personal-data.responder.js';
import { TimelineReactionRepository } from './timeline-reactions/timeline-reaction.repository.js';
import { forgetTimeline, timelineEventHandlers } from './timelines/timeline-events.js';
import { approveAllFollowRequests } from './follows/follow-request.service.js';
import { userEventHandlersWith } from './users/user-events.js';
import { peopleReadModel } from './users/user-rebuild.js';
import { mediaReadModel } from './videos/video-rebuild.js';
import { videoEventHandlers } from './videos/video-events.js';

export interface SocialServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
  /** How long the timelines service gets to answer an access check; default 2 s. */
  timelinesTimeoutMs?: number;
}

/** Consumer group of this service on the event stream: replicas share it. */
export const CONSUMER_GROUP = 'social';

/**
 * Starts the social service: its schema and migrations, the outbox relay, the consumer that keeps
 * its read models (people, timelines) in step, and the HTTP API. Used by the standalone process
 * and by the single-process mode alike.
 */
export async function startSocialService(options: SocialServiceOptions): Promise<RunningService> {
  const { logger, bus } = options;
  const dataSource = await openDatabase({ url: options.databaseUrl, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const relay = new OutboxRelay(dataSource, bus, { logger });
  relay.start();
  const events = new EventWriter(relay);

  // A deleted account's things are taken back through the HTTP services' own paths, once the app is up.
  const undo: { current?: PersonUndo } = {};
  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, [...userEventHandlersWith(async (manager, userId, requestId) => void (await approveAllFollowRequests(events, manager, userId, { actorUserId: userId, requestId }))), ...timelineEventHandlers, ...feedTimelineEventHandlers, ...videoEventHandlers, ...followEventHandlers(events), ...userDeletedHandlers(events, () => undo.current, logger)]);
  // `npm run read-model -- rebuild social`: the copies rebuilt from their producers while serving.
  const rebuild = await serveReadModelRebuild(bus, { service: 'social', dataSource, logger, models: [feedTimelinesReadModel(bus, forgetTimeline), peopleReadModel(bus, (manager, id) => forgetAccount(events, manager, id, `read-model-rebuild:${id}`)), mediaReadModel(bus), accountDeletionsCopyReadModel(bus)] });
  // The timelines service's like counts rebuild from this (read-model rebuild timelines --model likes).
  const likesReplay = await serveTimelineLikesReplay(bus, new TimelineReactionRepository(dataSource));
  // The auth service's profile counts rebuild from this (read-model rebuild auth --model follows).
  const followCountsReplay = await serveFollowCountsReplay(bus, dataSource);
  // The other services' moderation copies rebuild from this (read-model rebuild <service> --model moderation).
  const moderationReplay = await serveModerationReplay(bus, dataSource);
  // The person's own data, for their data archive (media worker).
  const personalData = await servePersonalDataOfSocial(bus, new PersonalDataRepository(dataSource));
  // The timelines and media services ask who is staff before showing them what the moderators took out.
  const staffRole = await serveStaffRole(bus, dataSource);
  const timelineAccess = new BusTimelineAccess(bus, logger, options.timelinesTimeoutMs ?? 2_000);

  const app = await createServiceApp({
    name: 'social',
    module: SocialModule.forRoot({ dataSource, events, timelineAccess }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: { database: databaseHealthCheck(dataSource), bus: () => bus.isHealthy() },
  });
  undo.current = personUndo(app);
  const url = await listenService(app, { name: 'social', port: options.port, host: options.host, logger });
  // The feed's key history is needed only as long as a read may last (feed-keys.ts).
  const pruning = setInterval(() => {
    pruneFeedKeys(dataSource.manager).catch((error: unknown) => logger.warn({ err: error }, 'feed key history not pruned; trying again later'));
  }, 10 * 60_000);
  pruning.unref();

  return {
    app,
    url,
    async close() {
      clearInterval(pruning);
      await app.close();
      await rebuild.unsubscribe();
      await likesReplay.unsubscribe();
      await followCountsReplay.unsubscribe();
      await moderationReplay.unsubscribe();
      await staffRole.unsubscribe();
      await personalData.unsubscribe();
      await consumer.unsubscribe();
      await relay.stop();
      await dataSource.destroy();
    },
  };
}
