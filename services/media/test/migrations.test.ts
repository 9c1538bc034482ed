import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { openDatabase, pendingSchemaChanges } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { mediaSchema } from '../src/index.js';

describe('media schema', () => {
  let db: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase('mediamig');
    ds = await openDatabase({ url: db.url, schema: mediaSchema.name, entities: mediaSchema.entities, migrations: mediaSchema.migrations });
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
    expect(new Set(tables.map((t) => t.table_schema))).toEqual(new Set(['media']));
    expect(tables.map((t) => t.table_name)).toEqual(['exports', 'inbox', 'media', 'migrations', 'outbox', 'upload_sessions']);
  });

  it('reads a timeline in order and finds expired sessions through indexes', async () => {
    const indexes: Array<{ indexname: string; indexdef: string }> = await ds.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'media' ORDER BY indexname`);
    const def = (name: string) => indexes.find((i) => i.indexname === name)?.indexdef;
    expect(def('media_timeline_position_idx')).toContain('(timeline_id, "position")');
    expect(def('upload_sessions_expires_idx')).toContain('(expires_at)');
    expect(def('upload_sessions_user_status_idx')).toContain('(user_id, status)');
  });

  it('reverts and re-applies cleanly', async () => {
    for (let i = 0; i < mediaSchema.migrations.length; i++) await ds.undoLastMigration();
    const left: Array<{ n: string }> = await ds.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'media' AND table_name <> 'migrations'`);
    expect(Number(left[0]!.n)).toBe(0);
    await ds.runMigrations();
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });
});
