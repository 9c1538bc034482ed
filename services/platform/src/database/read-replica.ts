import { Gauge, type Registry } from 'prom-client';
import type { DataSource, EntitySubscriberInterface, TransactionCommitEvent } from 'typeorm';
import { currentContext } from '../logging/request-context.js';

/**
 * Reads that may lag by a second (feed pages, search, profiles, popular, trending) go to a
 * streaming replica when the process has one (DATABASE_READ_URL), except:
 *
 * - a person's reads within `readYourWritesMs` (DATABASE_READ_YOUR_WRITES_SECONDS, 5 s) of their
 *   own write: a transaction committed on the primary while working for them (an HTTP request
 *   they made, or an event they caused) marks them, and their reads then stay on the primary;
 * - every read while the replica is further behind than that window (or cannot say how far).
 *
 * The mark is kept in this process. Behind a load balancer spreading one person's requests over
 * several replicas of a service, the replica that served the write sends their reads to the
 * primary, the others do not: a read landing there may miss the write for as long as the
 * streaming replica lags (`database_replica_lag_seconds`, normally well under a second, and never
 * more than the window, past which every read goes to the primary).
 */
export interface ReadReplica {
  replica: DataSource;
  readYourWritesMs: number;
  /** How far the replica's replay is behind, in seconds, at the last look; null before the first. */
  lagSeconds: number | null;
  stop(): void;
}

const replicas = new WeakMap<DataSource, ReadReplica>();
const watched = new Set<{ schema: string; state: ReadReplica }>();
const writers = new Map<string, number>();

/** The DataSource a read that may lag by a second uses: the replica, or the primary (above). */
export function readOnly(primary: DataSource, personId: string | undefined = currentContext()?.userId): DataSource {
  const state = replicas.get(primary);
  if (!state) return primary;
  if (state.lagSeconds === null || state.lagSeconds * 1000 > state.readYourWritesMs) return primary;
  if (personId !== undefined && wroteWithin(personId, state.readYourWritesMs)) return primary;
  return state.replica;
}

function wroteWithin(personId: string, ms: number): boolean {
  const at = writers.get(personId);
  if (at === undefined) return false;
  if (Date.now() - at <= ms) return true;
  writers.delete(personId);
  return false;
}

/** Marks a person as having just written (done for every commit made while working for them). */
export function markWrite(personId: string): void {
  writers.delete(personId);
  writers.set(personId, Date.now());
  // Oldest first (Map keeps insertion order): drop the marks past any window.
  if (writers.size > 1000) {
    const cutoff = Date.now() - 60_000;
    for (const [id, at] of writers) {
      if (at >= cutoff) break;
      writers.delete(id);
    }
  }
}

class WriteMarker implements EntitySubscriberInterface {
  afterTransactionCommit(event: TransactionCommitEvent): void {
    if (event.queryRunner.isTransactionActive) return;
    const personId = currentContext()?.userId;
    if (personId) markWrite(personId);
  }
}

const LAG_SQL = `SELECT CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                             ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::float8 AS lag`;

/** Replay lag of the server behind `dataSource`, in seconds (0 for a primary, or a replica that has replayed all it received). */
export async function replicaLagSeconds(dataSource: DataSource): Promise<number> {
  const [row] = (await dataSource.query(LAG_SQL)) as [{ lag: number | null }];
  return Math.max(0, row.lag ?? 0);
}

/** Sends `primary`'s lag-tolerant reads to `replica` (readOnly), watching its lag every `pollMs`. */
export function attachReadReplica(primary: DataSource, replica: DataSource, options: { schema: string; readYourWritesMs: number; pollMs?: number }): ReadReplica {
  (primary.subscribers as EntitySubscriberInterface[]).push(new WriteMarker());
  const poll = async () => {
    try {
      state.lagSeconds = await replicaLagSeconds(replica);
    } catch {
      state.lagSeconds = null;
    }
  };
  const timer = setInterval(() => void poll(), options.pollMs ?? 1_000);
  timer.unref();
  const entry = { schema: options.schema, state: undefined as unknown as ReadReplica };
  const state: ReadReplica = {
    replica,
    readYourWritesMs: options.readYourWritesMs,
    lagSeconds: null,
    stop() {
      clearInterval(timer);
      watched.delete(entry);
      replicas.delete(primary);
    },
  };
  entry.state = state;
  watched.add(entry);
  replicas.set(primary, state);
  void poll();
  return state;
}

/** Whether `primary` has a replica for its reads (readOnly). */
export const readReplicaOf = (primary: DataSource): ReadReplica | undefined => replicas.get(primary);

/**
 * `database_replica_lag_seconds{schema}` on /metrics: how far the read replica's replay is
 * behind the primary, looked at when Prometheus scrapes (absent without DATABASE_READ_URL).
 */
export function registerDatabaseMetrics(registry: Registry): void {
  new Gauge({
    name: 'database_replica_lag_seconds',
    help: 'How far the read replica (DATABASE_READ_URL) replays behind the primary',
    labelNames: ['schema'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        [...watched].map(async ({ schema, state }) => {
          try {
            state.lagSeconds = await replicaLagSeconds(state.replica);
            this.set({ schema }, state.lagSeconds);
          } catch {
            state.lagSeconds = null;
          }
        }),
      );
    },
  });
}
