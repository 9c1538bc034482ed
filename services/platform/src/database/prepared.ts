import type { DataSource } from 'typeorm';

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a hot read as a named prepared statement: each pooled connection parses and plans it once
 * and Postgres keeps its plan, instead of planning the same complex query on every request (for
 * the feed, planning took three times as long as running). The name must be unique per text.
 * Only for statements outside a transaction: it takes any connection from the pool.
 */
export async function preparedQuery<T>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (!pool) return (await dataSource.query(text, values)) as T[];
  const result = await pool.query({ name, text, values });
  return result.rows as T[];
}
