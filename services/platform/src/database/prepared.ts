import type { DataSource } from 'typeorm';
import { isTransactionPooled } from './database.js';

interface PgPool {
  query(config: { name?: string; text: string; values: unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[]; fields: Array<{ name: string }> }>;
}

const poolOf = (dataSource: DataSource): PgPool | undefined => (dataSource.driver as unknown as { master?: PgPool }).master;

/**
 * The statement's name, or none behind a pooler in transaction mode: a statement prepared on one
 * server connection is not there on the next (PgBouncer before 1.21, or without
 * `max_prepared_statements`), so it is parsed and planned each time, as an unnamed one.
 */
const nameFor = (dataSource: DataSource, name: string): { name?: string } => (isTransactionPooled(dataSource) ? {} : { name });

/**
 * Runs a hot read as a named prepared statement: each pooled connection parses and plans it once
 * and Postgres keeps its plan, instead of planning the same complex query on every request (for
 * the feed, planning took three times as long as running). The name must be unique per text.
 * Only for statements outside a transaction: it takes any connection from the pool.
 */
export async function preparedQuery<T>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = poolOf(dataSource);
  if (!pool) return (await dataSource.query(text, values)) as T[];
  const result = await pool.query({ ...nameFor(dataSource, name), text, values });
  return result.rows as T[];
}

/** Rows as arrays, and a reader of the columns whose names start with a prefix. */
export interface PreparedRows {
  rows: unknown[][];
  /**
   * Reads the columns named `${prefix}x` of a row as an object with fields `x`, in the order of
   * the columns: every object a reader makes has the same shape.
   */
  columns(prefix: string): (row: unknown[]) => Record<string, unknown>;
}

/**
 * preparedQuery for a row that holds several objects side by side (a feed card's post or
 * timeline beside its place in the page): the driver answers arrays instead of building one wide
 * object per row, and each object is read from its columns by position.
 */
export async function preparedRows(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<PreparedRows> {
  const pool = poolOf(dataSource);
  let names: string[];
  let rows: unknown[][];
  if (pool) {
    const result = await pool.query({ ...nameFor(dataSource, name), text, values, rowMode: 'array' });
    names = result.fields.map((f) => f.name);
    rows = result.rows as unknown[][];
  } else {
    const objects = (await dataSource.query(text, values)) as Array<Record<string, unknown>>;
    names = objects[0] ? Object.keys(objects[0]) : [];
    rows = objects.map((o) => names.map((n) => o[n]));
  }
  return {
    rows,
    columns(prefix) {
      const picked = names.flatMap((n, i) => (n.startsWith(prefix) ? [[n.slice(prefix.length), i] as const] : []));
      return (row) => {
        const out: Record<string, unknown> = {};
        for (const [field, i] of picked) out[field] = row[i];
        return out;
      };
    },
  };
}
