// DATABASE_POOL_SIZE is what the connection budget of k8s/README.md counts on: a process never
// holds more connections than its pool, however many queries it runs at once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { openDatabase, setDatabasePoolSize } from '../../src/database/database.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres.js';

describe('database pool size', () => {
  let db: TestDatabase;
  const open: DataSource[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('poolsize');
  });

  afterAll(async () => {
    for (const dataSource of open) await dataSource.destroy();
    setDatabasePoolSize(10);
    await db?.drop();
  });

  /** Runs `queries` half-second sleeps at once and returns the most connections the schema held meanwhile. */
  async function peakConnections(dataSource: DataSource, schema: string, queries: number): Promise<number> {
    const observer = new pg.Client({ connectionString: db.url });
    await observer.connect();
    let peak = 0;
    let running = true;
    const watch = (async () => {
      while (running) {
        const { rows } = await observer.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [schema]);
        peak = Math.max(peak, Number(rows[0]!.n));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await Promise.all(Array.from({ length: queries }, () => dataSource.query('SELECT pg_sleep(0.5)')));
    running = false;
    await watch;
    await observer.end();
    return peak;
  }

  it('opens at most the process’s pool size, set once for every database it opens', async () => {
    setDatabasePoolSize(3);
    const dataSource = await openDatabase({ url: db.url, schema: 'pool_process', entities: [], migrations: [] });
    open.push(dataSource);
    expect(await peakConnections(dataSource, 'pool_process', 8)).toBe(3);
  });

  it('lets one database name its own size', async () => {
    setDatabasePoolSize(3);
    const dataSource = await openDatabase({ url: db.url, schema: 'pool_own', entities: [], migrations: [], poolSize: 5 });
    open.push(dataSource);
    expect(await peakConnections(dataSource, 'pool_own', 8)).toBe(5);
  });

  it('refuses a pool too small to run migrations', () => {
    expect(() => setDatabasePoolSize(1)).toThrow(/at least 2 connections/);
  });
});
