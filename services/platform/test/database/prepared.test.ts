// Hot reads as named prepared statements; preparedRows reads several objects side by side from
// one row, by position.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../../src/database/database.js';
import { preparedQuery, preparedRows } from '../../src/database/prepared.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/postgres.js';

describe('prepared reads', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const text = `SELECT n AS "a_n", 'left ' || n AS "a_label", n * 10 AS "b_n", (n % 2 = 0) AS "b_even", now() AS "b_at"
                  FROM generate_series($1::int, $2::int) n ORDER BY n`;

  beforeAll(async () => {
    db = await createTestDatabase('prepared');
    dataSource = await openDatabase({ url: db.url, schema: 'prepared_reads', entities: [], migrations: [] });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('answers objects by column name, the same text planned once per connection', async () => {
    for (let i = 0; i < 3; i++) expect(await preparedQuery(dataSource, 'test_prepared_v1', text, [1, 2])).toMatchObject([{ a_n: 1, b_even: false }, { a_n: 2, b_even: true }]);
  });

  it('reads each prefix\'s columns as one object, with the driver\'s types, the same shape every row', async () => {
    const { rows, columns } = await preparedRows(dataSource, 'test_prepared_rows_v1', text, [1, 3]);
    const a = columns('a_');
    const b = columns('b_');
    expect(rows.map(a)).toEqual([{ n: 1, label: 'left 1' }, { n: 2, label: 'left 2' }, { n: 3, label: 'left 3' }]);
    const second = b(rows[1]!);
    expect(Object.keys(second)).toEqual(['n', 'even', 'at']);
    expect(second).toMatchObject({ n: 20, even: true });
    expect(second.at).toBeInstanceOf(Date);
    expect(columns('none_')(rows[0]!)).toEqual({});
  });

  it('reads the same without a pool to prepare on (the driver answers objects)', async () => {
    const plain = { driver: {}, query: (q: string, values: unknown[]) => dataSource.query(q, values) } as unknown as DataSource;
    const { rows, columns } = await preparedRows(plain, 'unused', text, [4, 5]);
    expect(rows.map(columns('a_'))).toEqual([{ n: 4, label: 'left 4' }, { n: 5, label: 'left 5' }]);
    const empty = await preparedRows(plain, 'unused', text, [5, 4]);
    expect(empty.rows).toEqual([]);
    expect(empty.columns('a_')).toBeInstanceOf(Function);
  });
});
