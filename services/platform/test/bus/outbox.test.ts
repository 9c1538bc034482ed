import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvents } from '@timeliner/proto';
import { DataSource } from 'typeorm';
import { deleteBusStreams, testNatsUrl } from '../../src/bus/bus-testing.js';
import type { BusMessage, ConsumeOptions, EventBus, EventMeta } from '../../src/bus/event-bus.port.js';
import { consumeEvents, on } from '../../src/bus/event-consumer.js';
import { JetStreamEventBus } from '../../src/bus/jetstream-event-bus.js';
import { Outbox } from '../../src/bus/outbox.js';
import { busEntities, OutboxEvent } from '../../src/bus/outbox.entity.js';
import { OutboxRelay } from '../../src/bus/outbox-relay.js';
import { createOutboxTables, dropOutboxTables } from '../../src/bus/outbox-tables.js';
import { SnakeNamingStrategy } from '../../src/database/snake-naming.strategy.js';
import { createTestDatabase, type TestDatabase, testBusPrefix } from '../../src/testing/postgres.js';
import { recordingLogger } from './recording-logger.js';
import { sleep, waitFor } from './wait.js';

// A service's schema, named unlike any default, to show nothing is tied to `public`.
const schema = 'accounts_svc';
const prefix = testBusPrefix('outbox');
const SETTLE_MS = 300;

let db: TestDatabase;
let dataSource: DataSource;
let bus: JetStreamEventBus;
const log = recordingLogger();

beforeAll(async () => {
  db = await createTestDatabase('outbox');
  // Configured as services configure theirs (openDatabase), minus the migrations.
  dataSource = new DataSource({
    type: 'postgres',
    url: db.url,
    schema,
    entities: busEntities,
    namingStrategy: new SnakeNamingStrategy(),
  });
  await dataSource.initialize();
  const queryRunner = dataSource.createQueryRunner();
  try {
    await queryRunner.query(`CREATE SCHEMA "${schema}"`);
    await createOutboxTables(queryRunner, schema);
    await queryRunner.query(`CREATE TABLE "${schema}"."users" (id uuid PRIMARY KEY, username text NOT NULL)`);
    await queryRunner.query(`CREATE TABLE "${schema}"."welcome_mails" (event_id uuid NOT NULL, user_id uuid NOT NULL)`);
  } finally {
    await queryRunner.release();
  }
  bus = await JetStreamEventBus.connect({ servers: testNatsUrl(), prefix, name: 'outbox-test', logger: log });
});

afterAll(async () => {
  await bus?.close();
  await dataSource?.destroy();
  await db?.drop();
  await deleteBusStreams(testNatsUrl(), prefix);
});

/** What a registration writes: the user and, in the same transaction, its event. */
async function register(username: string, options: { rollback?: boolean } = {}): Promise<string> {
  const userId = randomUUID();
  await dataSource
    .transaction(async (manager) => {
      await manager.query(`INSERT INTO "${schema}"."users" (id, username) VALUES ($1, $2)`, [userId, username]);
      await Outbox.add(
        manager,
        AuthEvents.UserRegistered,
        { userId, username, displayName: username, email: `${username}@example.test` },
        { actorUserId: userId, requestId: `req-${username}` },
      );
      if (options.rollback) throw new Error('validation failed after the insert');
    })
    .catch((error: unknown) => {
      if (!options.rollback) throw error;
    });
  return userId;
}

/** Collects what reaches a fresh consumer group for UserRegistered. */
async function collectRegistrations(source: EventBus = bus) {
  const received: Array<{ username: string; meta: EventMeta }> = [];
  const subscription = await consumeEvents(source, { durable: `mailer-${randomUUID().slice(0, 8)}`, dataSource }, [
    on(AuthEvents.UserRegistered, async (user, meta) => void received.push({ username: user.username, meta })),
  ]);
  return { received, subscription };
}

const outboxRows = () => dataSource.getRepository(OutboxEvent).find({ order: { position: 'ASC' } });

describe('outbox tables', () => {
  it('match the OutboxEvent and InboxEntry entities, so migration drift checks stay quiet', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('can be dropped and created again', async () => {
    const other = `${schema}_down`;
    const queryRunner = dataSource.createQueryRunner();
    try {
      await queryRunner.query(`CREATE SCHEMA "${other}"`);
      await createOutboxTables(queryRunner, other);
      await dropOutboxTables(queryRunner, other);
      await expect(queryRunner.query(`SELECT count(*) FROM "${other}"."outbox"`)).rejects.toThrow(/does not exist/);
    } finally {
      await queryRunner.release();
    }
  });
});

describe('outbox and relay', () => {
  it('refuses to write an event outside a transaction', async () => {
    await expect(
      Outbox.add(dataSource.manager, AuthEvents.UserRegistered, { userId: randomUUID(), username: 'x' }),
    ).rejects.toThrow(/inside the transaction/);
  });

  it('publishes committed events once and never those of a rolled-back transaction', async () => {
    const { received, subscription } = await collectRegistrations();
    const relay = new OutboxRelay(dataSource, bus, { logger: log });
    relay.start();
    try {
      await register('rolled-back', { rollback: true });
      const userId = await register('ada');
      relay.kick();
      await relay.idle();

      await waitFor(() => expect(received.map((r) => r.username)).toEqual(['ada']));
      expect(received[0]!.meta).toMatchObject({
        type: 'auth.user.registered',
        version: 1,
        actorUserId: userId,
        requestId: 'req-ada',
      });
      const rows = await outboxRows();
      expect(rows.map((row) => [row.type, row.dispatchedAt instanceof Date])).toEqual([['auth.user.registered', true]]);
      expect(received[0]!.meta.id).toBe(rows[0]!.id);
      await sleep(SETTLE_MS);
      expect(received).toHaveLength(1);
    } finally {
      await relay.stop();
      await subscription.unsubscribe();
    }
  });

  it('publishes an event exactly once when the relay died between publish and marking it', async () => {
    const { received, subscription } = await collectRegistrations();
    // The process publishes, then dies before its UPDATE commits: the row stays undispatched.
    let published = 0;
    const dyingBus: EventBus = Object.assign(Object.create(bus) as EventBus, {
      publish: async (message: BusMessage) => {
        await bus.publish(message);
        published++;
        throw new Error('process killed before marking the row dispatched');
      },
    });
    const doomed = new OutboxRelay(dataSource, dyingBus, { logger: log, retryDelayMs: 50 });
    doomed.start();
    await register('grace');
    doomed.kick();
    await waitFor(() => published >= 2); // sent and re-sent, still not marked
    await doomed.stop();
    const [row] = (await outboxRows()).filter((r) => r.dispatchedAt === null);
    expect(row).toMatchObject({ type: 'auth.user.registered' });
    expect(row!.attempts).toBeGreaterThanOrEqual(2);

    // The restarted service's relay sends everything not yet dispatched.
    const restarted = new OutboxRelay(dataSource, bus, { logger: log });
    restarted.start();
    try {
      await restarted.idle();
      expect((await outboxRows()).every((r) => r.dispatchedAt !== null)).toBe(true);
      await waitFor(() => expect(received.map((r) => r.username)).toContain('grace'));
      await sleep(SETTLE_MS);
      expect(received.filter((r) => r.username === 'grace')).toHaveLength(1);
    } finally {
      await restarted.stop();
      await subscription.unsubscribe();
    }
  });
});

describe('inbox', () => {
  it('applies a redelivered event once, and runs its after-commit work once, when the change is visible', async () => {
    // Effects commit, then the process loses its connection before the ack: NATS redelivers.
    const deliveries = new Map<string, number>();
    const ackLostOnce: EventBus = Object.assign(Object.create(bus) as EventBus, {
      consume: (options: ConsumeOptions, handler: (message: BusMessage) => Promise<void>) =>
        bus.consume({ ...options, backoffMs: [50] }, async (message) => {
          await handler(message);
          const count = (deliveries.get(message.meta.id) ?? 0) + 1;
          deliveries.set(message.meta.id, count);
          if (count === 1) throw new Error('connection lost before the ack');
        }),
    });
    const durable = `welcome-${randomUUID().slice(0, 8)}`;
    // What each after-commit call saw from another connection: the handler's row, or nothing.
    const seenAfterCommit: Array<{ eventId: string; rows: Promise<number> }> = [];
    const subscription = await consumeEvents(ackLostOnce, { durable, dataSource }, [
      on(AuthEvents.UserRegistered, async (user, meta, manager) => {
        await manager.query(`INSERT INTO "${schema}"."welcome_mails" (event_id, user_id) VALUES ($1, $2)`, [
          meta.id,
          user.userId,
        ]);
        meta.afterCommit?.(() => {
          const rows = dataSource.query(`SELECT 1 FROM "${schema}"."welcome_mails" WHERE event_id = $1`, [meta.id]).then((found: unknown[]) => found.length);
          seenAfterCommit.push({ eventId: meta.id, rows });
        });
      }),
    ]);
    const relay = new OutboxRelay(dataSource, bus, { logger: log });
    relay.start();
    try {
      const userId = await register('linus');
      relay.kick();
      await relay.idle();
      const eventId = (await outboxRows()).at(-1)!.id;

      await waitFor(() => expect(deliveries.get(eventId)).toBe(2));
      await sleep(SETTLE_MS);
      expect(deliveries.get(eventId)).toBe(2);
      const mails = await dataSource.query(`SELECT event_id FROM "${schema}"."welcome_mails" WHERE user_id = $1`, [userId]);
      expect(mails).toEqual([{ event_id: eventId }]);
      const inbox = await dataSource.query(`SELECT 1 FROM "${schema}"."inbox" WHERE consumer = $1 AND event_id = $2`, [
        durable,
        eventId,
      ]);
      expect(inbox).toHaveLength(1);
      // The stream holds the other tests' registrations too; this event's work ran once, after its commit.
      expect(await Promise.all(seenAfterCommit.filter((seen) => seen.eventId === eventId).map((seen) => seen.rows))).toEqual([1]);
    } finally {
      await relay.stop();
      await subscription.unsubscribe();
    }
  });

  it('gives up at once on a payload that does not decode', async () => {
    const handled: string[] = [];
    const durable = `strict-${randomUUID().slice(0, 8)}`;
    const subscription = await consumeEvents(bus, { durable, dataSource, logger: log }, [
      on(AuthEvents.UserUpdated, async (user) => void handled.push(user.userId)),
    ]);
    try {
      const id = randomUUID();
      await bus.publish({
        subject: AuthEvents.UserUpdated.subject,
        meta: { id, type: AuthEvents.UserUpdated.type, version: 1, occurredAt: new Date().toISOString() },
        data: new Uint8Array([0xff, 0xff, 0xff]),
      });
      await waitFor(() =>
        expect(log.entries).toContainEqual(
          expect.objectContaining({ level: 'error', context: expect.objectContaining({ eventId: id, attempts: 1 }) }),
        ),
      );
      await sleep(SETTLE_MS);
      expect(handled).toEqual([]);
      expect(log.entries.filter((entry) => (entry.context as { eventId?: string }).eventId === id)).toHaveLength(1);
    } finally {
      await subscription.unsubscribe();
    }
  });
});
