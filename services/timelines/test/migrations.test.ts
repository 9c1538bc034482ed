import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { openDatabase, pendingSchemaChanges } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';
import { timelinesSchema } from '../src/index.js';

describe('timelines schema', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const open = () => openDatabase({ url: db.url, schema: timelinesSchema.name, entities: timelinesSchema.entities, migrations: timelinesSchema.migrations });

  beforeAll(async () => {
    db = await createTestDatabase('tlmig');
    ds = await open();
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
    expect(new Set(tables.map((t) => t.table_schema))).toEqual(new Set(['timelines']));
    expect(tables.map((t) => t.table_name)).toEqual(['collaborators', 'inbox', 'invitations', 'migrations', 'outbox', 'timeline_engagements', 'timeline_videos', 'timeline_views', 'timelines', 'users']);
  });

  it('keeps is_public in step with visibility', async () => {
    const insert = (visibility: string, isPublic: boolean) =>
      ds.query(`INSERT INTO timelines (id, title, creator_id, creator_name, visibility, is_public) VALUES (gen_random_uuid(), 't', gen_random_uuid(), 'x', $1, $2)`, [visibility, isPublic]);
    await expect(insert('private', true)).rejects.toThrow(/timelines_is_public_check/);
    await expect(insert('public', false)).rejects.toThrow(/timelines_is_public_check/);
    await expect(insert('secret', false)).rejects.toThrow(/timelines_visibility_check/);
    await insert('public', true);
    const [row] = await ds.query(`SELECT visibility, status, content_freshness FROM timelines`);
    expect(row).toEqual({ visibility: 'public', status: 'draft', content_freshness: 'new' });
    await ds.query('DELETE FROM timelines');
  });

  it('reverts and re-applies cleanly', async () => {
    for (let i = 0; i < timelinesSchema.migrations.length; i++) await ds.undoLastMigration();
    const left: Array<{ n: string }> = await ds.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'timelines' AND table_name <> 'migrations'`);
    expect(Number(left[0]!.n)).toBe(0);
    await ds.runMigrations();
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });

  it('a second start applies nothing and a concurrent start waits for the first', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    const applied: Array<{ n: string }> = await a.query('SELECT count(*) AS n FROM migrations');
    expect(Number(applied[0]!.n)).toBe(timelinesSchema.migrations.length);
    await Promise.all([a.destroy(), b.destroy()]);
  });
});
