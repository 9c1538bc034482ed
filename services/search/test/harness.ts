import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { create, type DescMessage, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { createEventBus, createLogger, type EventBus, type RunningService, signIdentity } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { AuthEvents, type EventDefinition, SocialEvents, TimelinesEvents, type TimelineSnapshotSchema, TimelineStatus, Visibility } from '@timeliner/proto';
import { startSearchService, searchSchema } from '../src/index.js';

export type Snapshot = MessageInitShape<typeof TimelineSnapshotSchema>;

export interface TimelineSpec {
  id?: string;
  creatorId?: string;
  creatorName?: string;
  title: string;
  description?: string;
  visibility?: Visibility;
  status?: TimelineStatus;
  views?: number;
  likesCount?: number;
  commentsCount?: number;
  revision?: number;
}

export interface SearchHarness {
  service: RunningService;
  db: TestDatabase;
  bus: EventBus;
  call(method: 'get' | 'post' | 'delete', path: string, as?: { userId?: string }): request.Test;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Publishes an event as its producer's outbox relay would; returns the event id. */
  publish<Schema extends DescMessage>(definition: EventDefinition<Schema>, payload: MessageInitShape<Schema>, options?: { id?: string; occurredAt?: Date }): Promise<string>;
  /** Waits until the service has applied (or skipped) these events. */
  settle(...eventIds: string[]): Promise<void>;
  /** Publishes a timeline's snapshot and waits until it is applied; returns the snapshot. */
  timeline(spec: TimelineSpec, options?: { occurredAt?: Date }): Promise<Snapshot & { timelineId: string; creatorId: string; revision: bigint }>;
  deleteTimeline(timelineId: string, creatorId: string): Promise<void>;
  register(username: string, displayName: string, userId?: string): Promise<string>;
  post(userId: string, hashtags: string[], options?: { postId?: string; createdAt?: Date }): Promise<string>;
  close(): Promise<void>;
}

export const waitFor = async (check: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/**
 * The search service on a database of its own and the machine's NATS under a prefix of its own.
 * `publishFirst` runs before the service starts, for a service that joins after the events.
 */
export async function startHarness(label: string, options: { publishFirst?: (h: Pick<SearchHarness, 'publish'>) => Promise<void> } = {}): Promise<SearchHarness> {
  const db = await createTestDatabase(label, { schemas: [searchSchema] });
  const logger = createLogger('search-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix(label);
  const bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  const secret = randomBytes(32).toString('hex');
  const revisions = new Map<string, number>();

  const publish: SearchHarness['publish'] = async (definition, payload, { id = randomUUID(), occurredAt = new Date() } = {}) => {
    await bus.publish({
      subject: definition.subject,
      meta: { id, type: definition.type, version: definition.version, occurredAt: occurredAt.toISOString() },
      data: toBinary(definition.schema, create(definition.schema, payload)),
    });
    return id;
  };
  await options.publishFirst?.({ publish });

  const service = await startSearchService({ databaseUrl: db.url, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' });
  const agent = request(service.url);
  const dataSource = async () => service.app.get((await import('typeorm')).DataSource);
  const query = async <T>(sql: string, params?: unknown[]) => (await dataSource()).query(sql, params) as Promise<T[]>;
  const settle = async (...eventIds: string[]) =>
    waitFor(async () => Number((await query<{ n: string }>(`SELECT count(*) AS n FROM inbox WHERE event_id = ANY($1::uuid[])`, [eventIds]))[0]!.n) === eventIds.length);

  const h: SearchHarness = {
    service,
    db,
    bus,
    call(method, path, as = {}) {
      const requestId = `test-${randomBytes(6).toString('hex')}`;
      const headers = signIdentity(secret, { userId: as.userId, sessionId: as.userId ? randomUUID() : undefined, clientIp: '198.51.100.1' }, { requestId, method: method.toUpperCase(), url: path });
      return agent[method](path).set(headers).set('x-request-id', requestId);
    },
    query,
    publish,
    settle,
    async timeline(spec, { occurredAt } = {}) {
      const timelineId = spec.id ?? randomUUID();
      const revision = spec.revision ?? (revisions.get(timelineId) ?? 0) + 1;
      revisions.set(timelineId, revision);
      const now = new Date();
      const snapshot = {
        timelineId,
        creatorId: spec.creatorId ?? randomUUID(),
        creatorName: spec.creatorName ?? 'Ada Lovelace',
        title: spec.title,
        description: spec.description ?? '',
        visibility: spec.visibility ?? Visibility.PUBLIC,
        status: spec.status ?? TimelineStatus.PUBLISHED,
        videoCount: 3,
        duration: 95,
        views: BigInt(spec.views ?? 0),
        likesCount: spec.likesCount ?? 0,
        commentsCount: spec.commentsCount ?? 0,
        activityScore: 1.5,
        lastActivityAt: timestampFromDate(now),
        createdAt: timestampFromDate(now),
        updatedAt: timestampFromDate(now),
        coverMediaId: '',
        revision: BigInt(revision),
      };
      await settle(await publish(TimelinesEvents.TimelineSnapshot, snapshot, { occurredAt }));
      return snapshot;
    },
    async deleteTimeline(timelineId, creatorId) {
      await settle(await publish(TimelinesEvents.TimelineDeleted, { timelineId, creatorId }));
    },
    async register(username, displayName, userId = randomUUID()) {
      await settle(await publish(AuthEvents.UserRegistered, { userId, username, displayName, email: `${username}@example.com` }));
      return userId;
    },
    async post(userId, hashtags, { postId = randomUUID(), createdAt = new Date() } = {}) {
      const content = hashtags.map((t) => `#${t}`).join(' ');
      await settle(await publish(SocialEvents.PostCreated, { postId, userId, content, hashtags, mentions: [], createdAt: timestampFromDate(createdAt) }));
      return postId;
    },
    async close() {
      await service.close();
      await bus.close();
      await deleteBusStreams(testNatsUrl(), prefix).catch(() => undefined);
      await db.drop();
    },
  };
  return h;
}

/** A word no other test uses: lower-case letters only, so it is one plain word. */
export const uniqueWord = (stem: string): string => `${stem}${randomBytes(4).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
