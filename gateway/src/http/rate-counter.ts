import { Redis } from 'ioredis';
import type { Logger } from '@timeliner/platform';

/** One fixed window of a rate limit: hits counted so far (this one included) and the time left. */
export interface RateWindow {
  count: number;
  resetInMs: number;
}

/**
 * Counts hits per key in fixed windows: the storage behind every rate limit of the gateway. In
 * this replica's memory, or in Redis so that all replicas share one count per client.
 */
export interface RateCounter {
  /** Counts one hit on `key`; a key's window starts at its first hit and lasts `windowMs`. */
  hit(key: string, windowMs: number): Promise<RateWindow>;
  close(): Promise<void>;
}

/** Windows in this process's memory; entries are dropped once their window has ended. */
export class MemoryRateCounter implements RateCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<RateWindow> {
    return this.hitNow(key, windowMs);
  }

  /** The same as hit(), without waiting a turn of the event loop. */
  hitNow(key: string, windowMs: number): RateWindow {
    const now = this.now();
    if (this.windows.size > 10_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

// One round trip, atomic: the first hit of a window sets its expiry. A key somehow left without
// one (PTTL -1) gets it again rather than counting for ever.
const HIT_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHitWindow = Redis & { hitWindow(key: string, windowMs: number): Promise<[number, number]> };

export interface RedisRateCounterOptions {
  url: string;
  /** Put before every key, so several installations (or test runs) can share one Redis. */
  keyPrefix: string;
  logger: Logger;
  /** How long a hit waits for Redis before it is counted in this replica instead. */
  timeoutMs?: number;
  /** Called for each hit counted in this replica because Redis did not answer. */
  onFallback?: () => void;
}

/**
 * Windows in Redis, shared by every gateway replica: a client meets the same limit whichever
 * replica it reaches. While Redis cannot answer (down, unreachable, slower than `timeoutMs`),
 * hits are counted in this replica's memory, as without Redis: the limits loosen to one budget
 * per replica for the outage, but requests neither fail nor wait for it. The outage is logged
 * when it starts and when it ends, with the number of hits counted locally meanwhile.
 */
export class RedisRateCounter implements RateCounter {
  private readonly client: RedisWithHitWindow;
  private readonly local = new MemoryRateCounter();
  private readonly logger: Logger;
  private readonly onFallback: () => void;
  private readonly keyPrefix: string;
  private localHits = 0;
  private outageSince: number | undefined;

  constructor(options: RedisRateCounterOptions) {
    this.logger = options.logger;
    this.keyPrefix = options.keyPrefix;
    this.onFallback = options.onFallback ?? (() => undefined);
    this.client = new Redis(options.url, {
      // A request never waits for a reconnection: while disconnected a command fails at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs ?? 250,
      connectTimeout: 2_000,
      // How long close() lets an open socket end gracefully (it also holds a closing process up).
      disconnectTimeout: 200,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      connectionName: 'timeliner-gateway-rate-limits',
    }) as RedisWithHitWindow;
    this.client.defineCommand('hitWindow', { numberOfKeys: 1, lua: HIT_WINDOW });
    // Connection errors are the outage handled in hit(); ioredis would print them otherwise.
    this.client.on('error', () => undefined);
    this.client.on('ready', () => this.recovered());
  }

  async hit(key: string, windowMs: number): Promise<RateWindow> {
    try {
      const [count, resetInMs] = await this.client.hitWindow(this.keyPrefix + key, windowMs);
      // A slow Redis ends its outage with an answer; a lost connection with 'ready' as well.
      if (this.outageSince !== undefined) this.recovered();
      return { count, resetInMs };
    } catch (err) {
      this.failed(err);
      return this.local.hitNow(key, windowMs);
    }
  }

  /**
   * Waits until Redis answers, at most `timeoutMs` (a starting gateway); if it does not, the
   * outage begins now and hits are counted in this replica until it does.
   */
  async waitUntilConnected(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.client.status !== 'ready' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    if (this.client.status === 'ready') return true;
    this.startOutage(new Error(`no answer from Redis within ${timeoutMs} ms (${this.client.status})`));
    return false;
  }

  async close(): Promise<void> {
    this.client.disconnect();
    await this.local.close();
  }

  private failed(err: unknown): void {
    this.localHits += 1;
    this.onFallback();
    this.startOutage(err);
  }

  private startOutage(err: unknown): void {
    if (this.outageSince !== undefined) return;
    this.outageSince = Date.now();
    this.logger.warn({ err }, 'Redis is not answering: rate limits are counted in this replica until it is back');
  }

  private recovered(): void {
    if (this.outageSince === undefined) {
      this.logger.info('rate limits shared through Redis');
      return;
    }
    this.logger.info({ seconds: Math.round((Date.now() - this.outageSince) / 1000), localHits: this.localHits }, 'Redis is back: rate limits are shared again');
    this.outageSince = undefined;
    this.localHits = 0;
  }
}
