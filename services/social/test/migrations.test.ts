import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { openDatabase, pendingSchemaChanges } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { socialSchema } from '../src/index.js';

describe('social schema', () => {
  let db: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase('socialmig');
    ds = await openDatabase({ url: db.url, schema: socialSchema.name, entities: socialSchema.entities, migrations: socialSchema.migrations });
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('migrations build exactly what the entities describe (no drift)', async () => {
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });

  it('lives in its own schema only', async () => {
    const tables: Array<{ table_schema: string; table_name: string }> = await ds.query(
      `SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 2`,
    );
    expect(new Set(tables.map((t) => t.table_schema))).toEqual(new Set(['social']));
    expect(tables.map((t) => t.table_name)).toEqual(['inbox', 'migrations', 'outbox', 'timeline_comments', 'users']);
  });

  it("reads a timeline's comments newest first through the index", async () => {
    const indexes: Array<{ indexdef: string }> = await ds.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'social' AND indexname = 'timeline_comments_timeline_created_idx'`);
    expect(indexes[0]?.indexdef).toContain('(timeline_id, created_at DESC, id DESC)');
  });

  it('reverts and re-applies cleanly', async () => {
    for (let i = 0; i < socialSchema.migrations.length; i++) await ds.undoLastMigration();
    const left: Array<{ n: string }> = await ds.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'social' AND table_name <> 'migrations'`);
    expect(Number(left[0]!.n)).toBe(0);
    await ds.runMigrations();
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });

  it('a second start applies nothing and a concurrent start waits for the first', async () => {
    const [a, b] = await Promise.all([
      openDatabase({ url: db.url, schema: socialSchema.name, entities: socialSchema.entities, migrations: socialSchema.migrations }),
      openDatabase({ url: db.url, schema: socialSchema.name, entities: socialSchema.entities, migrations: socialSchema.migrations }),
    ]);
    const applied: Array<{ n: string }> = await a.query('SELECT count(*) AS n FROM migrations');
    expect(Number(applied[0]!.n)).toBe(socialSchema.migrations.length);
    await Promise.all([a.destroy(), b.destroy()]);
  });
});
