import pg from 'pg';
import { DataSource, type EntitySchema, type MixedList } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';
import type { Logger } from 'pino';

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

const SCHEMA_NAME = /^[a-z][a-z0-9_]{0,62}$/;

function dataSourceFor(options: DatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
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
      // Every connection works in the service's schema, including raw queries.
      options: `-c search_path=${options.schema}`,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      application_name: options.schema,
    },
  });
}

/**
 * Opens the service's database: creates its schema if missing and applies its migrations (never
 * `synchronize`). Several replicas starting together are serialised by an advisory lock, so a
 * migration runs once.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DataSource> {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`Invalid schema name: ${options.schema}`);
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${options.schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    const dataSource = await dataSourceFor(options).initialize();
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      if (applied.length > 0) options.logger?.info({ schema: options.schema, migrations: applied.map((m) => m.name) }, 'applied migrations');
    } catch (err) {
      await dataSource.destroy();
      throw err;
    }
    return dataSource;
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${options.schema}`]).catch(() => undefined);
    await client.end();
  }
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
