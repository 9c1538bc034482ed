import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { create, type DescMessage, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { createEventBus, createLogger, createWorkQueue, deleteWorkStream, type EventBus, type RunningService, signIdentity, type Subscription, type WorkQueue } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { AuthEvents, type EventDefinition, Realtime, type RealtimeMessage } from '@timeliner/proto';
import webpush from 'web-push';
import { type NotificationsServiceOptions, startNotificationsService, notificationsSchema } from '../src/index.js';

export interface As {
  userId?: string;
}

export interface PublishOptions {
  id?: string;
  /** When the change happened; default now. */
  occurredAt?: Date;
  actorUserId?: string;
  /** false: return once published, without waiting until it is applied (an event before its dependency). */
  wait?: boolean;
}

export interface NotificationsHarness {
  service: RunningService;
  db: TestDatabase;
  bus: EventBus;
  queue: WorkQueue;
  vapid: { publicKey: string; privateKey: string; subject: string };
  call(method: 'get' | 'post' | 'put' | 'delete', path: string, as?: As): request.Test;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Publishes an event as its producer's outbox relay would and waits until this service applied it. */
  publish<Schema extends DescMessage>(definition: EventDefinition<Schema>, payload: MessageInitShape<Schema>, options?: PublishOptions): Promise<string>;
  /** A person the auth service announced; returns their id. */
  person(username: string, displayName?: string, email?: string): Promise<string>;
  /** Every realtime message sent to a person's sockets from now on. */
  listen(userId: string): Promise<RealtimeMessage[]>;
  /** Stops the service, as a process that ends, and starts it again on the same database, bus and queue. */
  restart(options?: ServiceOptions): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** What the service sees of the bus (a test may make it fail); default the harness's own. */
  bus?: (bus: EventBus) => EventBus;
  /** What the service sees of the work queue; default the harness's own. */
  queue?: (queue: WorkQueue) => WorkQueue;
}

export const waitFor = async (check: () => Promise<boolean> | boolean, ms = 8_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** What a test may set of the push worker: a local push service's certificate (`pushCa`), limits. */
export type PushOptions = Partial<Pick<NotificationsServiceOptions, 'pushCa' | 'pushLimits' | 'pushTimeoutMs' | 'pushSubscriptionsPerPerson' | 'pushAddresses'>>;

export async function startHarness(label: string, options: { pushBackoffMs?: number[] } & PushOptions & ServiceOptions = {}): Promise<NotificationsHarness> {
  const db = await createTestDatabase(label, { schemas: [notificationsSchema] });
  const logger = createLogger('notifications-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const prefix = testBusPrefix(label);
  const bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  const queue = await createWorkQueue({ natsUrl: testNatsUrl(), prefix, logger });
  const secret = randomBytes(32).toString('hex');
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@timeliner.test' };
  const { DataSource } = await import('typeorm');
  const start = (seen: ServiceOptions) =>
    startNotificationsService({
      databaseUrl: db.url,
      bus: seen.bus ? seen.bus(bus) : bus,
      workQueue: seen.queue ? seen.queue(queue) : queue,
      logger,
      identitySecret: secret,
      port: 0,
      host: '127.0.0.1',
      vapid,
      // The local push service (push-service.ts) listens on 127.0.0.1: the one internal address opened.
      pushAddresses: options.pushAddresses ?? { allowedPrivateRanges: ['127.0.0.1/32'] },
      ...(options.pushCa ? { pushCa: options.pushCa } : {}),
      ...(options.pushLimits ? { pushLimits: options.pushLimits } : {}),
      ...(options.pushTimeoutMs ? { pushTimeoutMs: options.pushTimeoutMs } : {}),
      ...(options.pushSubscriptionsPerPerson ? { pushSubscriptionsPerPerson: options.pushSubscriptionsPerPerson } : {}),
      pushPolicy: { backoffMs: options.pushBackoffMs ?? [100, 200], maxDeliver: 3 },
    });
  let service = await start(options);
  let agent = request(service.url);
  let dataSource = service.app.get(DataSource);
  const listeners: Subscription[] = [];

  const h: NotificationsHarness = {
    service,
    db,
    bus,
    queue,
    vapid,
    call(method, path, as = {}) {
      const requestId = `test-${randomBytes(6).toString('hex')}`;
      const headers = signIdentity(secret, { userId: as.userId, sessionId: as.userId ? randomUUID() : undefined, clientIp: '198.51.100.1' }, { requestId, method: method.toUpperCase(), url: path });
      return agent[method](path).set(headers).set('x-request-id', requestId);
    },
    query(sql, params) {
      return dataSource.query(sql, params);
    },
    async publish(definition, payload, publishOptions = {}) {
      const id = publishOptions.id ?? randomUUID();
      await bus.publish({
        subject: definition.subject,
        meta: {
          id,
          type: definition.type,
          version: definition.version,
          occurredAt: (publishOptions.occurredAt ?? new Date()).toISOString(),
          ...(publishOptions.actorUserId ? { actorUserId: publishOptions.actorUserId } : {}),
        },
        data: toBinary(definition.schema, create(definition.schema, payload)),
      });
      if (publishOptions.wait !== false) await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
      return id;
    },
    async person(username, displayName = username, email = `${username}@example.com`) {
      const userId = randomUUID();
      await h.publish(AuthEvents.UserRegistered, { userId, username, displayName, email });
      return userId;
    },
    async listen(userId) {
      const received: RealtimeMessage[] = [];
      listeners.push(await bus.subscribe(Realtime.userSubject(userId), (message) => void received.push(Realtime.decode(message.data))));
      return received;
    },
    async restart(restartOptions = {}) {
      await service.close();
      service = await start(restartOptions);
      h.service = service;
      agent = request(service.url);
      dataSource = service.app.get(DataSource);
    },
    async close() {
      for (const listener of listeners) await listener.unsubscribe();
      await service.close();
      await queue.close();
      await bus.close();
      await deleteBusStreams(testNatsUrl(), prefix);
      await deleteWorkStream(testNatsUrl(), prefix);
      await db.drop();
    },
  };
  return h;
}
