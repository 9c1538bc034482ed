import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, setDatabasePoolWait, type DatabaseOptions } from '../database/database.js';

/**
 * What services opened by a test wait for a pooled connection. Test files run three at a time on
 * two cores beside Chromium and ffmpeg: a concurrency test's burst of requests can wait there far
 * longer than the production default (5 s) allows, and a 503 then says the machine is busy, not
 * that the code is wrong. Products a test starts as processes get the same from the run's
 * environment (DATABASE_POOL_WAIT_SECONDS, set by the global setup).
 */
export const TEST_POOL_WAIT_MS = 30_000;

/**
 * A database of its own for one test file. Uses the Postgres at TEST_DATABASE_ADMIN_URL
 * (default: the machine's 127.0.0.1:5432); each call creates a fresh database and returns its URL
 * and a drop function, so parallel runs and parallel files never collide.
 */
export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A service's schema as its migrations build it (the `schema` each service exports). */
export type TestSchema = Pick<DatabaseOptions, 'entities' | 'migrations'> & { name: string };

/**
 * A database migrated once per test run and copied for each file that asks for it. `key` names
 * what it holds (the same key, the same contents); `build` migrates the empty database at `url`.
 */
export interface TestTemplate {
  key: string;
  build(url: string): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * Service schemas the database starts with, migrated: a copy of a template database migrated
   * once per run (the service's own start then finds nothing to apply). Without a run (no
   * TEST_DATABASE_RUN, set by the jest global setup), the database starts empty and the service
   * migrates it as in production.
   */
  schemas?: TestSchema[];
  /** A template of the caller's own, for what `schemas` cannot describe (the built product's). */
  template?: TestTemplate;
}

export const adminUrl = (): string =>
  process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The run's id (test/support/jest-global-setup.mjs), in the names of the databases it creates. */
export const testDatabaseRun = (): string | undefined => {
  const run = process.env.TEST_DATABASE_RUN;
  return run && /^[a-z0-9]{1,16}$/.test(run) ? run : undefined;
};

/** Names of the run's template databases start with this; the global teardown drops them. */
const templatePrefix = (run: string): string => `tltpl_${run}_`;

const databaseUrl = (name: string): string => {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
};

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** Migrates every schema into the database at `url`, in order, as the services' own start would. */
export const schemasTemplate = (schemas: TestSchema[]): TestTemplate => {
  const digest = createHash('sha256');
  for (const schema of schemas) {
    digest.update(`${schema.name}\n`);
    for (const migration of Array.isArray(schema.migrations) ? schema.migrations : Object.values(schema.migrations)) {
      digest.update(typeof migration === 'string' ? migration : `${migration.name}\n${String(migration)}\n`);
    }
  }
  return {
    key: `${schemas.map((s) => s.name).join('_').slice(0, 24)}_${digest.digest('hex').slice(0, 10)}`,
    async build(url) {
      for (const schema of schemas) {
        const dataSource = await openDatabase({ url, schema: schema.name, entities: schema.entities, migrations: schema.migrations, poolSize: 2 });
        await dataSource.destroy();
      }
    },
  };
};

/**
 * The run's template database for `template`, built by the first file that asks (the others wait
 * on an advisory lock, then find it). It is built under a temporary name and renamed once
 * complete, so a file that stopped half-way never leaves a half-migrated template behind. No one
 * connects to it afterwards: Postgres copies a template only while no session is connected.
 */
async function ensureTemplate(run: string, template: TestTemplate): Promise<string> {
  const name = `${templatePrefix(run)}${template.key.replace(/[^a-z0-9_]/gi, '').toLowerCase()}`.slice(0, 63);
  return withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `${name.slice(0, 54)}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      try {
        await template.build(databaseUrl(building));
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      } catch (err) {
        await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`).catch(() => undefined);
        throw err;
      }
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    }
  });
}

export async function createTestDatabase(label = 't', options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  setDatabasePoolWait(TEST_POOL_WAIT_MS);
  const run = testDatabaseRun();
  const name = `tl_${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 20)}_${run ?? process.pid}_${randomBytes(4).toString('hex')}`;
  const wanted = options.template ?? (options.schemas?.length ? schemasTemplate(options.schemas) : undefined);
  const template = run && wanted ? await ensureTemplate(run, wanted) : undefined;
  await withAdmin((admin) => admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`));
  return {
    url: databaseUrl(name),
    name,
    async drop() {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** A unique NATS subject/stream prefix for one test file. */
export const testBusPrefix = (label = 't'): string =>
  `t${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 12)}${process.pid}${randomBytes(3).toString('hex')}`;
