import type { DataSource } from 'typeorm';

/** A counter as stored: its count and when its window started (for failures: the latest failure). */
export interface CounterRow {
  count: number;
  windowStart: Date;
}

interface RawCounter {
  count: number | string;
  window_start: Date;
}

const toCounter = (row: RawCounter | undefined): CounterRow | undefined => (row ? { count: Number(row.count), windowStart: new Date(row.window_start) } : undefined);

/** rate_limits: fixed-window counters shared by every replica. */
export class RateLimitRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Counts one more under a key; a window older than `windowSeconds` starts again at one. */
  async increment(key: string, windowSeconds: number): Promise<CounterRow> {
    const rows: RawCounter[] = await this.dataSource.query(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE rate_limits.count + 1 END,
         window_start = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => $2) THEN now() ELSE rate_limits.window_start END
       RETURNING count, window_start`,
      [key, windowSeconds],
    );
    return toCounter(rows[0])!;
  }

  /** Counts one more under a key whose window runs from the latest count: it starts again after `windowSeconds` without one. */
  async incrementSliding(key: string, windowSeconds: number): Promise<CounterRow> {
    const rows: RawCounter[] = await this.dataSource.query(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE rate_limits.count + 1 END,
         window_start = now()
       RETURNING count, window_start`,
      [key, windowSeconds],
    );
    return toCounter(rows[0])!;
  }

  /** A counter still within its window, without counting. */
  async current(key: string, windowSeconds: number): Promise<CounterRow | undefined> {
    const rows: RawCounter[] = await this.dataSource.query(
      `SELECT count, window_start FROM rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [key, windowSeconds],
    );
    return toCounter(rows[0]);
  }

  /** How many counters start with a prefix and are still within their window. */
  async countWithPrefix(prefix: string, windowSeconds: number): Promise<number> {
    const rows: Array<{ n: string }> = await this.dataSource.query(
      `SELECT count(*) AS n FROM rate_limits WHERE key LIKE $1 AND window_start > now() - make_interval(secs => $2)`,
      [`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, windowSeconds],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async delete(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limits WHERE key = $1', [key]);
  }

  /** Drops counters whose window started more than `olderThanSeconds` ago. */
  async deleteOlderThan(olderThanSeconds: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => $1)`, [olderThanSeconds]);
  }
}
