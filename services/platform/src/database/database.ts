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
  /** Connections in this process's pool. */
  poolSize?: number;
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
      max: options.poolSize ?? 10,
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
