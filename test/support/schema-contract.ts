import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { openDatabase, pendingSchemaChanges } from '@timeliner/platform';
import { createTestDatabase, type TestDatabase } from '@timeliner/platform/testing';

type DatabaseOptions = Parameters<typeof openDatabase>[0];

/** A service's own Postgres schema, as each service's src/schema.ts exports it. */
export interface ServiceSchema {
  name: string;
  entities: DatabaseOptions['entities'];
  migrations: NonNullable<DatabaseOptions['migrations']> & unknown[];
}

/**
 * What every service's migrations must do: build exactly what the entities describe, in the
 * service's schema only, revert and re-apply cleanly, and apply once when several processes start
 * at the same moment. `more` adds the service's own checks on the migrated database.
 */
export function schemaContract(schema: ServiceSchema, tables: string[], more?: (database: () => DataSource) => void): void {
  describe(`${schema.name} schema`, () => {
    let db: TestDatabase;
    let ds: DataSource;
    const open = () => openDatabase({ url: db.url, schema: schema.name, entities: schema.entities, migrations: schema.migrations });

    beforeAll(async () => {
      db = await createTestDatabase(`${schema.name}mig`);
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
      const found: Array<{ table_schema: string; table_name: string }> = await ds.query(
        `SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 2`,
      );
      expect(new Set(found.map((t) => t.table_schema))).toEqual(new Set([schema.name]));
      expect(found.map((t) => t.table_name)).toEqual(tables);
    });

    more?.(() => ds);

    it('reverts and re-applies cleanly', async () => {
      for (let i = 0; i < schema.migrations.length; i++) await ds.undoLastMigration();
      const left: Array<{ n: string }> = await ds.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'migrations'`, [schema.name]);
      expect(Number(left[0]!.n)).toBe(0);
      await ds.runMigrations();
      expect(await pendingSchemaChanges(ds)).toEqual([]);
    });

    it('a second start applies nothing and a concurrent start waits for the first', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const applied: Array<{ n: string }> = await a.query('SELECT count(*) AS n FROM migrations');
      expect(Number(applied[0]!.n)).toBe(schema.migrations.length);
      await Promise.all([a.destroy(), b.destroy()]);
    });
  });
}
