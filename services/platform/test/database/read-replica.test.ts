// DATABASE_READ_URL and DATABASE_POOL_MODE: which DataSource a lag-tolerant read gets (readOnly),
// read-your-writes after a person's commit, the lag cap and metric; and the transaction-pooled
// client's schema per transaction. The database stands in for its own replica here (it reports
// no lag); test/cluster/database.cluster.ts has a real streaming replica and PgBouncer.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { openDatabase, setDatabaseRouting } from '../../src/database/database.js';
import { preparedQuery } from '../../src/database/prepared.js';
import { readOnly, readReplicaOf, registerDatabaseMetrics } from '../../src/database/read-replica.js';
import { inTransaction } from '../../src/database/transactions.js';
import { runWithContext } from '../../src/logging/request-context.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ALICE = '00000000-0000-4000-8000-00000000000a';
const BOB = '00000000-0000-4000-8000-00000000000b';

describe('read replica and transaction pooling', () => {
  let db: TestDatabase;
  let primary: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('readreplica');
    setDatabaseRouting({ readUrl: db.url, readYourWritesMs: 400, poolMode: 'transaction' });
    primary = await openDatabase({ url: db.url, schema: 'reads', entities: [], migrations: [] });
    await primary.query('CREATE TABLE notes (id int PRIMARY KEY, body text)');
    const replica = readReplicaOf(primary)!;
    for (let i = 0; replica.lagSeconds === null && i < 50; i++) await sleep(50);
  });

  afterAll(async () => {
    setDatabaseRouting({ readUrl: '', readYourWritesMs: 5_000, poolMode: 'session' });
    await primary?.destroy();
    await db?.drop();
  });

  it("sends a lag-tolerant read to the replica, and a person's reads to the primary for the window after their commit", async () => {
    const replica = readReplicaOf(primary)!;
    expect(replica.lagSeconds).toBe(0);
    expect(readOnly(primary)).toBe(replica.replica);
    expect(readOnly(primary, ALICE)).toBe(replica.replica);

    await runWithContext({ requestId: 'r1', userId: ALICE }, () => inTransaction(primary, (manager) => manager.query('INSERT INTO notes VALUES (1, $1)', ['mine'])));
    // The person who wrote, from their own request's context or by id; somebody else still the replica.
    expect(runWithContext({ requestId: 'r2', userId: ALICE }, () => readOnly(primary))).toBe(primary);
    expect(readOnly(primary, ALICE)).toBe(primary);
    expect(runWithContext({ requestId: 'r3', userId: BOB }, () => readOnly(primary))).toBe(replica.replica);
    await sleep(500);
    expect(readOnly(primary, ALICE)).toBe(replica.replica);
  });

  it('marks nobody for a rolled-back transaction', async () => {
    await runWithContext({ requestId: 'r4', userId: BOB }, () => inTransaction(primary, async (manager) => {
      await manager.query('INSERT INTO notes VALUES (2, $1)', ['undone']);
      throw new Error('changed my mind');
    })).catch(() => undefined);
    expect(readOnly(primary, BOB)).not.toBe(primary);
  });

  it('sends every read to the primary while the replica lags past the window, or cannot say', () => {
    const replica = readReplicaOf(primary)!;
    const measured = replica.lagSeconds;
    try {
      replica.lagSeconds = 1;
      expect(readOnly(primary)).toBe(primary);
      replica.lagSeconds = null;
      expect(readOnly(primary)).toBe(primary);
      replica.lagSeconds = 0.2;
      expect(readOnly(primary)).toBe(replica.replica);
    } finally {
      replica.lagSeconds = measured;
    }
  });

  it('reports the lag on /metrics', async () => {
    const registry = new Registry();
    registerDatabaseMetrics(registry);
    expect(await registry.metrics()).toMatch(/^database_replica_lag_seconds\{schema="reads"\} 0$/m);
  });

  it('works in the schema in each transaction, and with unnamed statements, when pooled by transaction', async () => {
    expect(await primary.query('SELECT current_setting($1) AS path', ['search_path'])).toEqual([{ path: 'reads' }]);
    expect(await readOnly(primary).query('SELECT body FROM notes WHERE id = 1')).toEqual([{ body: 'mine' }]);
    const inside = await inTransaction(primary, async (manager) => {
      await manager.query('INSERT INTO notes VALUES (3, $1)', ['third']);
      return manager.query('SELECT current_setting($1) AS path, count(*)::int AS n FROM notes', ['search_path']);
    });
    expect(inside).toEqual([{ path: 'reads', n: 2 }]);
    for (let i = 0; i < 3; i++) expect(await preparedQuery(primary, 'reads_note_v1', 'SELECT body FROM notes WHERE id = $1', [3])).toEqual([{ body: 'third' }]);
    // A failed statement on its own rolls back its transaction and leaves the connection usable.
    await expect(primary.query('SELECT * FROM missing_table')).rejects.toThrow(/missing_table/);
    expect(await primary.query('SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 2 }]);
  });
});
