// One transaction helper and one after-commit mechanism: work waits for the outermost commit,
// is dropped on rollback, and the event writer nudges the relay by itself.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthEvents } from '@timeliner/proto';
import type { DataSource } from 'typeorm';
import { EventWriter } from '../../src/bus/event-writer.js';
import { OutboxEvent } from '../../src/bus/outbox.entity.js';
import { createOutboxTables } from '../../src/bus/outbox-tables.js';
import { openDatabase } from '../../src/database/database.js';
import { afterCommit, inTransaction, Transactions } from '../../src/database/transactions.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres.js';

describe('transactions and after-commit work', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const schema = 'after_commit';

  beforeAll(async () => {
    db = await createTestDatabase('transactions');
    dataSource = await openDatabase({ url: db.url, schema, entities: [OutboxEvent], migrations: [] });
    const queryRunner = dataSource.createQueryRunner();
    try {
      await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await createOutboxTables(queryRunner, schema);
      await queryRunner.query(`CREATE TABLE "${schema}".notes (id serial PRIMARY KEY, body text NOT NULL)`);
    } finally {
      await queryRunner.release();
    }
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** Rows of `notes` as another connection sees them. */
  const visibleNotes = async (): Promise<number> => ((await dataSource.query(`SELECT count(*)::int AS n FROM "${schema}".notes`)) as Array<{ n: number }>)[0]!.n;

  it('runs the work once the transaction has committed, when its change is visible elsewhere', async () => {
    const seen: number[] = [];
    const before = await visibleNotes();
    const result = await new Transactions(dataSource).run(async (manager) => {
      await manager.query(`INSERT INTO "${schema}".notes (body) VALUES ('a')`);
      afterCommit(manager, async () => {
        seen.push(await visibleNotes());
      });
      expect(seen).toEqual([]);
      return 'done';
    });
    expect(result).toBe('done');
    await waitUntil(() => seen.length === 1);
    expect(seen).toEqual([before + 1]);
  });

  it('never runs the work of a transaction that rolls back', async () => {
    let ran = false;
    await expect(
      inTransaction(dataSource, async (manager) => {
        await manager.query(`INSERT INTO "${schema}".notes (body) VALUES ('b')`);
        afterCommit(manager, () => {
          ran = true;
        });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toBe(false);
  });

  it('waits for the outermost commit, not a savepoint inside it, and runs the same work once', async () => {
    const runs: string[] = [];
    const once = () => {
      runs.push('once');
    };
    await inTransaction(dataSource, async (manager) => {
      await manager.transaction(async (inner) => {
        afterCommit(inner, once);
        afterCommit(inner, once);
      });
      // The savepoint is released: nothing ran yet.
      expect(runs).toEqual([]);
      afterCommit(manager, once);
    });
    expect(runs).toEqual(['once']);
  });

  it('runs at once outside a transaction, and a failing piece of work reaches no caller', async () => {
    const runs: string[] = [];
    afterCommit(dataSource.manager, () => {
      runs.push('now');
    });
    expect(runs).toEqual(['now']);
    await inTransaction(dataSource, async (manager) => {
      afterCommit(manager, () => {
        throw new Error('cache gone');
      });
      afterCommit(manager, () => Promise.reject(new Error('cache gone too')));
      afterCommit(manager, () => {
        runs.push('after the failures');
      });
    });
    expect(runs).toEqual(['now', 'after the failures']);
  });

  it('the event writer nudges the relay once per committed transaction, never for one rolled back', async () => {
    let kicks = 0;
    const events = new EventWriter({ kick: () => kicks++ });
    const registered = (manager: Parameters<EventWriter['add']>[0], n: number) =>
      events.add(manager, AuthEvents.UserRegistered, { userId: `00000000-0000-4000-8000-00000000000${n}`, email: `${n}@example.com`, username: `user${n}`, displayName: `User ${n}`, profileVersion: 1n }, {});
    await inTransaction(dataSource, async (manager) => {
      await registered(manager, 1);
      await registered(manager, 2);
      expect(kicks).toBe(0);
    });
    expect(kicks).toBe(1);
    await expect(
      inTransaction(dataSource, async (manager) => {
        await registered(manager, 3);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(kicks).toBe(1);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM "${schema}".outbox`)).toEqual([{ n: 2 }]);
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
