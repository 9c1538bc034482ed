import pg from 'pg';
import type { Logger } from 'pino';

export interface WaitOptions {
  /** Give up after this long; the error then names what was waited for and the last failure. */
  timeoutMs: number;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** First pause between tries; it doubles up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Runs `attempt` until it succeeds or the time is up, with capped exponential backoff. A process
 * whose database or NATS is not there yet (a first `kubectl apply`, an infrastructure restart)
 * waits for it instead of exiting at once into CrashLoopBackOff. It logs when it starts waiting,
 * at most every 10 s while it waits, and when the wait is over.
 */
export async function waitFor<T>(what: string, attempt: () => Promise<T>, options: WaitOptions): Promise<T> {
  const started = Date.now();
  let delay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5_000;
  let tries = 0;
  let lastLog = 0;
  for (;;) {
    tries += 1;
    try {
      const result = await attempt();
      if (tries > 1) options.logger.info({ dependency: what, tries, waitedMs: Date.now() - started }, `${what} is reachable`);
      return result;
    } catch (error) {
      const elapsed = Date.now() - started;
      const reason = error instanceof Error ? error.message : String(error);
      if (elapsed + delay > options.timeoutMs) {
        throw new Error(`Gave up waiting for ${what} after ${Math.round(elapsed / 1000)} s (${tries} tries): ${reason}`, { cause: error });
      }
      if (tries === 1 || Date.now() - lastLog >= 10_000) {
        options.logger.warn({ dependency: what, tries, reason }, `Waiting for ${what}`);
        lastLog = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, maxDelay);
    }
  }
}

/** Waits until Postgres at `url` answers a query. */
export function waitForPostgres(url: string, options: WaitOptions): Promise<void> {
  return waitFor(`Postgres at ${describeUrl(url)}`, async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  }, options);
}

/** host:port/database of a URL, without credentials, for log lines. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the configured address';
  }
}
