// Jest's global setup: names the run. Test databases are named after it, and the templates a run
// migrates once and copies for each file (services/platform/src/testing/postgres.ts) belong to
// it, so the global teardown drops what this run made and nothing of another run on the same
// Postgres. Workers inherit the variable.
//
// While it lasts, the run holds an advisory lock named after it on a connection of its own: a run
// that was stopped before its teardown (Ctrl-C) no longer holds one, and the next run's setup
// drops what it left.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const adminUrl = () => process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const lockOf = (run) => `timeliner-test-run:${run}`;

export default async function globalSetup() {
  const run = `s${randomBytes(4).toString('hex')}`;
  process.env.TEST_DATABASE_RUN = run;
  // The processes tests start (the product, services) wait as long for a pooled connection as
  // in-process ones do (TEST_POOL_WAIT_MS in services/platform/src/testing/postgres.ts).
  process.env.DATABASE_POOL_WAIT_SECONDS ??= '30';
  const admin = new pg.Client({ connectionString: adminUrl(), application_name: `jest ${run}` });
  try {
    await admin.connect();
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [lockOf(run)]);
    globalThis.__testDatabaseRunLock = admin;
    // tl_<label>_<run>_<8 hex> (a file's), tltpl_<run>_<key> (a template).
    const { rows } = await admin.query(
      String.raw`SELECT datname, coalesce(substring(datname from '^tl_[a-z0-9]*_(s[0-9a-f]{8})_[0-9a-f]{8}$'), substring(datname from '^tltpl_(s[0-9a-f]{8})_')) AS run FROM pg_database`,
    );
    const ended = new Map();
    for (const { datname, run: other } of rows) {
      if (!other || other === run) continue;
      if (!ended.has(other)) {
        const { rows: [free] } = await admin.query('SELECT pg_try_advisory_lock(hashtext($1)) AS free', [lockOf(other)]);
        if (free.free) await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [lockOf(other)]);
        ended.set(other, free.free);
      }
      if (ended.get(other)) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } catch (err) {
    // No Postgres (a unit or web-app run on a machine without one): nothing to name or clean.
    console.error(`Test databases: ${err.message}`);
    await admin.end().catch(() => undefined);
  }
}
