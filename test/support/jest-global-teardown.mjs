// Jest's global teardown: drops the run's template databases and any test database of the run a
// failed file left behind (names carry the run, see jest-global-setup.mjs), then lets go of the
// run's lock.
import pg from 'pg';

export default async function globalTeardown() {
  const run = process.env.TEST_DATABASE_RUN;
  const lock = globalThis.__testDatabaseRunLock;
  if (!run || !/^[a-z0-9]{1,16}$/.test(run)) return;
  const admin = lock ?? new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  try {
    if (!lock) await admin.connect();
    const { rows } = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2', [`tl\\_%\\_${run}\\_%`, `tltpl\\_${run}\\_%`]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } catch (err) {
    console.error(`Dropping the test run's databases failed: ${err.message}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}
