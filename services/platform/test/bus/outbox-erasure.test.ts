import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvents } from '@timeliner/proto';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createEventBus } from '../../src/bus/bus.factory.js';
import type { EventBus } from '../../src/bus/event-bus.port.js';
import { Outbox } from '../../src/bus/outbox.js';
import { busEntities } from '../../src/bus/outbox.entity.js';
import { createOutboxErasures, eraseDispatched, requestOutboxErasure } from '../../src/bus/outbox-erasure.js';
import { OutboxRelay } from '../../src/bus/outbox-relay.js';
import { createOutboxTables } from '../../src/bus/outbox-tables.js';
import { openDatabase } from '../../src/database/database.js';
import { createTestDatabase, type TestDatabase, testBusPrefix } from '../../src/testing/postgres.js';
import { recordingLogger } from './recording-logger.js';
import { waitFor } from './wait.js';

const schema = 'erasing_svc';

class Tables1000000000000 implements MigrationInterface {
  name = 'Tables1000000000000';
  async up(q: QueryRunner): Promise<void> {
    await createOutboxTables(q, schema);
    await createOutboxErasures(q);
  }
  async down(): Promise<void> {}
}

let db: TestDatabase;
let dataSource: DataSource;
let bus: EventBus;
const log = recordingLogger();

beforeAll(async () => {
  db = await createTestDatabase('outboxerase');
  dataSource = await openDatabase({ url: db.url, schema, entities: busEntities, migrations: [Tables1000000000000] });
  bus = await createEventBus({ prefix: testBusPrefix('outboxerase'), logger: log });
});

afterAll(async () => {
  await bus?.close();
  await dataSource?.destroy();
  await db?.drop();
});

const register = (userId: string, username: string, displayName = username) =>
  dataSource.transaction((manager) => Outbox.add(manager, AuthEvents.UserRegistered, { userId, username, displayName, email: `${username}@example.test` }, { actorUserId: userId }));
const left = async () => ((await dataSource.query('SELECT id FROM outbox ORDER BY position')) as Array<{ id: string }>).map((row) => row.id);

describe('erasing a deleted person from the outbox', () => {
  it('the dispatched rows naming them go (by actor or by their names in the payload); those not yet sent stay until sent, then go with the request', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    const adaName = `ada_${ada.slice(0, 6)}`;
    const relay = new OutboxRelay(dataSource, bus, { pollIntervalMs: 50 });
    const own = await register(ada, adaName);
    const mentions = await register(bob, `bob_${bob.slice(0, 6)}`, `fan of ${adaName}`);
    const unrelated = await register(randomUUID(), `cy_${bob.slice(0, 6)}`);
    relay.start();
    await relay.idle();
    await relay.stop();
    expect(await left()).toEqual([own, mentions, unrelated]);

    // Written while nothing sends (the relay stopped): waits to be sent, naming her.
    const waiting = await dataSource.transaction((manager) => Outbox.add(manager, AuthEvents.UserDeleted, { userId: ada, username: adaName, email: `${adaName}@example.test` }, { actorUserId: ada }));
    await dataSource.transaction((manager) => requestOutboxErasure(manager, { userId: ada.toUpperCase(), names: [adaName, `${adaName}@example.test`] }));
    expect(await eraseDispatched(dataSource.manager)).toBe(2);
    expect(await left()).toEqual([unrelated, waiting]);
    expect(await dataSource.query('SELECT user_id FROM outbox_erasures')).toEqual([{ user_id: ada }]);

    // Sent, then erased; the request goes with it. Nothing else is touched.
    relay.start();
    await waitFor(async () => (await left()).length === 1 && (await dataSource.query('SELECT 1 FROM outbox_erasures')).length === 0, 10_000);
    expect(await left()).toEqual([unrelated]);
    await relay.stop();
  });
});
