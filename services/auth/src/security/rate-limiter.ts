import type { DataSource } from 'typeorm';

export interface Limit {
  /** Counter key, e.g. `login:ip:203.0.113.9`. */
  key: string;
  max: number;
  windowSeconds: number;
}

export interface LimitState {
  limited: boolean;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Fixed-window counters in Postgres, so every replica sees the same counts without another
 * moving part. One statement per hit (an upsert that restarts an expired window).
 */
export class RateLimiter {
  constructor(private readonly dataSource: DataSource) {}

  /** Counts a hit and tells whether the limit is now exceeded. */
  async hit(limit: Limit): Promise<LimitState> {
    const rows: Array<{ count: number; window_start: Date }> = await this.dataSource.query(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE rate_limits.count + 1 END,
         window_start = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => $2) THEN now() ELSE rate_limits.window_start END
       RETURNING count, window_start`,
      [limit.key, limit.windowSeconds],
    );
    return this.state(limit, rows[0]);
  }

  /** Reads a counter without counting (e.g. failures so far, before trying a password). */
  async peek(limit: Limit): Promise<LimitState> {
    const rows: Array<{ count: number; window_start: Date }> = await this.dataSource.query(
      `SELECT count, window_start FROM rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [limit.key, limit.windowSeconds],
    );
    return this.state(limit, rows[0], true);
  }

  async reset(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limits WHERE key = $1', [key]);
  }

  /** Drops counters whose window ended long ago. */
  async prune(olderThanSeconds = 86_400): Promise<void> {
    await this.dataSource.query(`DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => $1)`, [olderThanSeconds]);
  }

  private state(limit: Limit, row: { count: number; window_start: Date } | undefined, peek = false): LimitState {
    if (!row) return { limited: false, retryAfter: 0 };
    const count = Number(row.count);
    const elapsed = (Date.now() - new Date(row.window_start).getTime()) / 1000;
    const retryAfter = Math.max(1, Math.ceil(limit.windowSeconds - elapsed));
    return { limited: peek ? count >= limit.max : count > limit.max, retryAfter };
  }
}
