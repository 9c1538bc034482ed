import pg from 'pg';
import { DataSource, type EntitySchema, type MixedList } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';
import type { Logger } from 'pino';
import { transactionPooledClient } from './pooled-client.js';
import { attachReadReplica } from './read-replica.js';

export interface DatabaseOptions {
  url: string;
  /** The service's own schema; no other service reads or writes it. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  logger?: Logger;
  /** Connections in this database's pool; default: the process's (setDatabasePoolSize). */
  poolSize?: number;
  /** How `url` pools server connections; default: the process's (setDatabaseRouting). */
  poolMode?: PoolMode;
  /** A streaming replica for the reads that may lag (readOnly); default: the process's (setDatabaseRouting). */
  readUrl?: string;
}

/**
 * `session`: each connection of the pool is a server session of its own (Postgres itself, or a
 * pooler in session mode). `transaction`: a pooler in transaction mode (PgBouncer, CNPG's Pooler)
 * in front; nothing may rely on a session (pooled-client.ts).
 */
export type PoolMode = 'session' | 'transaction';

interface Routing {
  poolMode: PoolMode;
  readUrl: string | undefined;
  readYourWritesMs: number;
}

/** What a process opens per database unless told otherwise: 10, or DATABASE_POOL_SIZE. */
let processPoolSize = 10;

/**
 * Sets the pool size of every database this process opens without naming one. A service process
 * sets it from DATABASE_POOL_SIZE (runServiceProcess), so Kubernetes can fit replicas × pool into
 * Postgres's max_connections (k8s/README.md, "Connection budget") without each service passing
 * it along.
 */
export function setDatabasePoolSize(size: number): void {
  if (!Number.isInteger(size) || size < 2) throw new Error(`A database pool needs at least 2 connections (migrations hold one while running on another), got ${size}`);
  processPoolSize = size;
}

let processPoolWaitMs = 5_000;

/** Sets how long every database this process opens waits for a pooled connection (DATABASE_POOL_WAIT_SECONDS). */
export function setDatabasePoolWait(ms: number): void {
  if (!Number.isInteger(ms) || ms < 1) throw new Error(`A pool's wait for a connection is a positive number of milliseconds, got ${ms}`);
  processPoolWaitMs = ms;
}

const routing: Routing = { poolMode: 'session', readUrl: undefined, readYourWritesMs: 5_000 };

/**
 * How every database this process opens is reached: through a pooler in transaction mode or not
 * (DATABASE_POOL_MODE), a read replica (DATABASE_READ_URL) and how long a person's own reads stay
 * on the primary after they wrote (DATABASE_READ_YOUR_WRITES_SECONDS). Set by runServiceProcess.
 */
export function setDatabaseRouting(options: Partial<Routing>): void {
  Object.assign(routing, Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
}

const pooledByTransaction = new WeakSet<DataSource>();

/** Whether `dataSource` goes through a pooler in transaction mode (no named statements, no session state). */
export const isTransactionPooled = (dataSource: DataSource): boolean => pooledByTransaction.has(dataSource);

const SCHEMA_NAME = /^[a-z][a-z0-9_]{0,62}$/;

function dataSourceFor(options: DatabaseOptions, replicaUrl?: string): DataSource {
  const pooled = (options.poolMode ?? routing.poolMode) === 'transaction';
  const dataSource = new DataSource({
    type: 'postgres',
    url: replicaUrl ?? options.url,
    // A replica is read-only: the primary's start installed what the entities need.
    ...(replicaUrl ? { installExtensions: false } : {}),
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    migrationsRun: false,
    logging: false,
    extra: {
      max: options.poolSize ?? processPoolSize,
      // Every connection works in the service's schema, including raw queries: set at the start of
      // the session, or of each transaction behind a pooler in transaction mode.
      ...(pooled ? { Client: transactionPooledClient(options.schema) } : { options: `-c search_path=${options.schema}` }),
      connectionTimeoutMillis: processPoolWaitMs,
      idleTimeoutMillis: 30_000,
      application_name: options.schema,
    },
  });
  if (pooled) pooledByTransaction.add(dataSource);
  return dataSource;
}

/**
 * Opens the service's database: creates its schema if missing and applies its migrations (never
 * `synchronize`). Several replicas starting together are serialised by an advisory lock, so a
 * migration runs once. The lock is a transaction's, held by a transaction left open meanwhile on
 * a connection of its own: a pooler in transaction mode keeps that transaction on one server
 * connection, where a session's lock would stay behind on whichever it ran on.
 *
 * With a read URL (DATABASE_READ_URL), a second DataSource on the replica serves the reads that
 * may lag (readOnly); it closes with the primary's `destroy()`.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DataSource> {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`Invalid schema name: ${options.schema}`);
  const lockKey = `migrate:${options.schema}`;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  let dataSource: DataSource;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    await client.query('COMMIT');
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
    dataSource = await dataSourceFor(options).initialize();
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      if (applied.length > 0) options.logger?.info({ schema: options.schema, migrations: applied.map((m) => m.name) }, 'applied migrations');
    } catch (err) {
      await dataSource.destroy();
      throw err;
    }
  } finally {
    await client.query('COMMIT').catch(() => undefined);
    await client.end();
  }
  const readUrl = options.readUrl ?? routing.readUrl;
  if (readUrl) {
    const replica = await dataSourceFor({ ...options, migrations: [] }, readUrl).initialize();
    const reads = attachReadReplica(dataSource, replica, { schema: options.schema, readYourWritesMs: routing.readYourWritesMs });
    const destroy = dataSource.destroy.bind(dataSource);
    dataSource.destroy = async () => {
      reads.stop();
      await replica.destroy().catch(() => undefined);
      await destroy();
    };
  }
  return dataSource;
}

/**
 * The SQL that would bring the database in line with the entities. Empty when migrations and
 * entities agree; the drift test fails otherwise and prints what a new migration must contain.
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query);
}

export const databaseHealthCheck = (dataSource: DataSource) => async (): Promise<boolean> => {
  await dataSource.query('SELECT 1');
  return true;
};
