import { randomBytes } from 'node:crypto';
import pg from 'pg';

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

export const adminUrl = (): string =>
  process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createTestDatabase(label = 't'): Promise<TestDatabase> {
  const name = `tl_${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 20)}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A unique NATS subject/stream prefix for one test file. */
export const testBusPrefix = (label = 't'): string =>
  `t${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 12)}${process.pid}${randomBytes(3).toString('hex')}`;
