import type { CounterRow, RateLimitRepository } from './rate-limit.repository.js';

export interface Limit {
  /** Counter key, e.g. `login:ip:203.0.113.9`. */
  key: string;
  max: number;
  windowSeconds: number;
}

export interface FailureRecord {
  count: number;
  /** The latest failure; null when there is none within the window. */
  lastAt: Date | null;
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
  constructor(private readonly counters: RateLimitRepository) {}

  /** Counts a hit and tells whether the limit is now exceeded. */
  async hit(limit: Limit): Promise<LimitState> {
    return this.state(limit, await this.counters.increment(limit.key, limit.windowSeconds));
  }

  /** Reads a counter without counting (e.g. failures so far, before trying a password). */
  async peek(limit: Limit): Promise<LimitState> {
    return this.state(limit, await this.counters.current(limit.key, limit.windowSeconds), true);
  }

  /**
   * Counts one more failure under a key whose window runs from the latest failure: the count
   * starts again once `windowSeconds` have passed without one. Answers the count and when.
   */
  async failure(key: string, windowSeconds: number): Promise<FailureRecord> {
    const row = await this.counters.incrementSliding(key, windowSeconds);
    return { count: row.count, lastAt: row.windowStart };
  }

  /** The failures so far under such a key (none once its window has passed). */
  async failures(key: string, windowSeconds: number): Promise<FailureRecord> {
    const row = await this.counters.current(key, windowSeconds);
    return row ? { count: row.count, lastAt: row.windowStart } : { count: 0, lastAt: null };
  }

  /** How many counters start with a prefix and are still within their window (e.g. addresses that failed on one account). */
  countKeys(prefix: string, windowSeconds: number): Promise<number> {
    return this.counters.countWithPrefix(prefix, windowSeconds);
  }

  reset(key: string): Promise<void> {
    return this.counters.delete(key);
  }

  /** Drops counters whose window ended long ago. */
  prune(olderThanSeconds = 86_400): Promise<void> {
    return this.counters.deleteOlderThan(olderThanSeconds);
  }

  private state(limit: Limit, row: CounterRow | undefined, peek = false): LimitState {
    if (!row) return { limited: false, retryAfter: 0 };
    const elapsed = (Date.now() - row.windowStart.getTime()) / 1000;
    const retryAfter = Math.max(1, Math.ceil(limit.windowSeconds - elapsed));
    return { limited: peek ? row.count >= limit.max : row.count > limit.max, retryAfter };
  }
}
