import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { idsAfter, type RebuildableReadModel, rebuildReadModel } from '../../src/bus/read-model-rebuild.js';
import { SnakeNamingStrategy } from '../../src/database/snake-naming.strategy.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres.js';

/**
 * rebuildReadModel on a real Postgres copy, with a producer of rows held here: the copy ends equal
 * to the producer (rows it lacked applied, rows the producer no longer has removed, newer versions
 * kept), a page at a time: by the time a page is asked for, every row of the copy below it is
 * settled, so nothing of the model is held across pages whatever its size.
 */
const schema = 'copy_svc';
let db: TestDatabase;
let dataSource: DataSource;

interface Row {
  id: string;
  name: string;
  version: number;
}

beforeAll(async () => {
  db = await createTestDatabase('rebuildpages');
  dataSource = new DataSource({ type: 'postgres', url: db.url, schema, entities: [], namingStrategy: new SnakeNamingStrategy() });
  await dataSource.initialize();
  await dataSource.query(`CREATE SCHEMA "${schema}"`);
  await dataSource.query(`CREATE TABLE "${schema}"."copies" (id uuid PRIMARY KEY, name text NOT NULL, version bigint NOT NULL)`);
});

afterAll(async () => {
  await dataSource?.destroy();
  await db?.drop();
});

const ids = (n: number) => Array.from({ length: n }, () => randomUUID()).sort();

function model(producer: Map<string, Row>, seen: Array<{ after: string; staleBelow: number }>): RebuildableReadModel<Row> {
  const sorted = () => [...producer.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    name: 'copies',
    async fetchPage(afterId, limit) {
      // What the copy still holds below this page that the producer does not have.
      const [{ n }] = (await dataSource.query(`SELECT count(*)::int AS n FROM "${schema}".copies WHERE id <= $1 AND NOT (id = ANY($2::uuid[]))`, [
        afterId || '00000000-0000-0000-0000-000000000000',
        [...producer.keys()],
      ])) as [{ n: number }];
      seen.push({ after: afterId, staleBelow: n });
      const rows = sorted().filter((row) => row.id > afterId).slice(0, limit);
      return { rows, total: producer.size };
    },
    fetchIds: async (wanted) => wanted.map((id) => producer.get(id)).filter((row): row is Row => row !== undefined),
    idOf: (row) => row.id,
    async apply(manager, row) {
      await manager.query(
        `INSERT INTO "${schema}".copies (id, name, version) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, version = EXCLUDED.version WHERE copies.version < EXCLUDED.version`,
        [row.id, row.name, row.version],
      );
    },
    localIds: (manager, afterId, limit) => idsAfter(manager, `"${schema}".copies`, afterId, limit),
    remove: async (manager, id) => {
      await manager.query(`DELETE FROM "${schema}".copies WHERE id = $1`, [id]);
    },
  };
}

describe('rebuilding a read model', () => {
  it('makes the copy equal to the producer, settling each page’s range before the next page is asked for', async () => {
    const all = ids(230);
    const producer = new Map<string, Row>();
    for (const id of all.filter((_, i) => i % 3 !== 0)) producer.set(id, { id, name: `name ${id.slice(0, 4)}`, version: 2 });
    // The copy: the producer's rows gone long ago (every third), some at an older version, one newer.
    for (const [i, id] of all.entries()) {
      const version = i % 3 === 0 ? 1 : i % 5 === 0 ? 1 : i === 7 ? 9 : 0;
      if (version > 0) await dataSource.query(`INSERT INTO "${schema}".copies (id, name, version) VALUES ($1, 'old', $2)`, [id, version]);
    }
    const seen: Array<{ after: string; staleBelow: number }> = [];
    const result = await rebuildReadModel(dataSource, model(producer, seen), { pageSize: 25 });

    expect(result).toMatchObject({ finished: true, done: producer.size, removed: all.filter((_, i) => i % 3 === 0).length });
    const copy = (await dataSource.query(`SELECT id, name, version::int AS version FROM "${schema}".copies ORDER BY id`)) as Row[];
    expect(copy.map((r) => r.id)).toEqual([...producer.keys()].sort());
    expect(copy.find((r) => r.id === all[7])).toMatchObject({ name: 'old', version: 9 });
    expect(copy.filter((r) => r.id !== all[7]).every((r) => r.version === 2)).toBe(true);
    // A page at a time: every page after the first found the copy settled below it.
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.map((s) => s.staleBelow)).toEqual(seen.map(() => 0));
  });
});
