import type { Logger } from 'pino';
import { accountDeletionsCopyReadModel, consumeEvents, createServiceApp, moderationCopyReadModel, personFilterCopyHandlers, serveReadModelRebuild, databaseHealthCheck, type EventBus, listenService, openDatabase, type RunningService, type IdentitySecret } from '@timeliner/platform';
import { accountDeletionHandlers } from './accounts/account-deletion.js';
import { captionEventHandlers } from './captions/caption-events.js';
import { DiscoverRepository } from './discover/discover.repository.js';
import { postEventHandlers } from './hashtags/post-events.js';
import { schema } from './schema.js';
import { SearchModule } from './search.module.js';
import { timelineEventHandlers } from './timelines/timeline-events.js';
import { timelinesReadModel } from './timelines/timeline-rebuild.js';
import { userEventHandlers } from './users/user-events.js';
import { moderationEventHandlers } from './moderation/moderation-events.js';
import { peopleReadModel } from './users/user-rebuild.js';

export interface SearchServiceOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** The gateway's identity key, or the keyring of a rotation. */
  identitySecret: IdentitySecret;
  port: number;
  host: string;
}

/** Consumer group of this service on the event stream: replicas share it. */
export const CONSUMER_GROUP = 'search';

/**
 * Starts the search service: its schema and migrations, the consumer that keeps its read model
 * (timelines, people, hashtags) in step with the events, and the HTTP API. A new consumer group
 * first receives everything the stream still holds, so a search service started after the others
 * catches up on what they published. Used by the standalone process and the single-process mode.
 */
export async function startSearchService(options: SearchServiceOptions): Promise<RunningService> {
  const { logger, bus } = options;
  const dataSource = await openDatabase({ url: options.databaseUrl, schema: schema.name, entities: schema.entities, migrations: schema.migrations, logger });
  const consumer = await consumeEvents(bus, { durable: CONSUMER_GROUP, dataSource, logger }, [...timelineEventHandlers, ...userEventHandlers, ...postEventHandlers, ...captionEventHandlers, ...personFilterCopyHandlers, ...moderationEventHandlers, ...accountDeletionHandlers]);
  // `npm run read-model -- rebuild search`: the copies rebuilt from their producers while serving.
  const rebuild = await serveReadModelRebuild(bus, { service: 'search', dataSource, logger, models: [timelinesReadModel(bus), peopleReadModel(bus), moderationCopyReadModel(bus, { subjectTypes: ['timeline', 'account'] }), accountDeletionsCopyReadModel(bus)] });

  const app = await createServiceApp({
    name: 'search',
    module: SearchModule.forRoot({ dataSource }),
    logger,
    identitySecret: options.identitySecret,
    healthChecks: { database: databaseHealthCheck(dataSource), bus: () => bus.isHealthy() },
  });
  const url = await listenService(app, { name: 'search', port: options.port, host: options.host, logger });
  const discover = new DiscoverRepository(dataSource);
  const pruning = setInterval(() => {
    discover.pruneEngagement().catch((error: unknown) => logger.warn({ err: error }, 'old engagement not pruned; trying again later'));
  }, 60 * 60_000);
  pruning.unref();

  return {
    app,
    url,
    async close() {
      clearInterval(pruning);
      await app.close();
      await rebuild.unsubscribe();
      await consumer.unsubscribe();
      await dataSource.destroy();
    },
  };
}
