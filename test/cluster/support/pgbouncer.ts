// PgBouncer (Debian's `pgbouncer`, 1.18 here) in transaction mode on a port of its own, and a
// streaming replica of the suite's Postgres cluster made with pg_basebackup: what the database
// cluster test puts between the services and Postgres.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, sleep } from '../../faults/support/infra.js';

const PG_BIN = process.env.FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PGBOUNCER = process.env.CLUSTER_PGBOUNCER ?? '/usr/sbin/pgbouncer';

const asRoot = process.getuid?.() === 0;

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A directory the `postgres` user may write in (Postgres and PgBouncer refuse to run as root). */
function ownDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
}

function runAsPostgres(command: string, args: string[], log: string): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(cmd, argv as string[], { encoding: 'utf8' });
  appendFileSync(log, `$ ${command} ${args.join(' ')}\n${result.stdout}${result.stderr}`);
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr}`);
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A hot standby of the cluster on `primaryPort`, streaming from it (pg_basebackup -R). */
export class PostgresReplica {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly log: string,
  ) {}

  static async create(dir: string, primaryPort: number, log: string): Promise<PostgresReplica> {
    ownDir(dir);
    ownDir(join(dir, 'socket'));
    const replica = new PostgresReplica(dir, await freePort(), log);
    runAsPostgres(join(PG_BIN, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', join(dir, 'data'), '-R', '-X', 'stream', '--no-sync'], log);
    const options = `-p ${replica.port} -k ${join(dir, 'socket')} -c listen_addresses=127.0.0.1 -c max_connections=200 -c hot_standby_feedback=on`;
    runAsPostgres(join(PG_BIN, 'pg_ctl'), ['-D', join(dir, 'data'), '-l', join(dir, 'postgres.log'), '-o', options, '-w', 'start'], log);
    return replica;
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  stop(): void {
    runAsPostgres(join(PG_BIN, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop'], this.log);
  }

  async query<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const client = new pg.Client({ connectionString: this.url() });
    await client.connect();
    try {
      return (await client.query<Row>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }
}

/** PgBouncer in transaction mode; `databases` maps each name it serves to a Postgres port and database. */
export class PgBouncer {
  private process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly log: string,
  ) {}

  static async start(dir: string, databases: Record<string, { port: number; dbname: string }>, log: string, poolSize = 20): Promise<PgBouncer> {
    if (!existsSync(PGBOUNCER)) throw new Error(`No ${PGBOUNCER} (apt-get install pgbouncer, or set CLUSTER_PGBOUNCER)`);
    ownDir(dir);
    const bouncer = new PgBouncer(await freePort(), log);
    const ini = join(dir, 'pgbouncer.ini');
    writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
    writeFileSync(
      ini,
      [
        '[databases]',
        ...Object.entries(databases).map(([name, d]) => `${name} = host=127.0.0.1 port=${d.port} dbname=${d.dbname}`),
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bouncer.port}`,
        `unix_socket_dir = ${dir}`,
        'auth_type = trust',
        `auth_file = ${join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        `default_pool_size = ${poolSize}`,
        'max_client_conn = 1000',
        // What node-postgres sends at connection start and PgBouncer 1.18 does not track.
        'ignore_startup_parameters = extra_float_digits',
        `logfile = ${join(dir, 'pgbouncer.log')}`,
        '',
      ].join('\n'),
    );
    // As root it refuses to start unless told whom to run as.
    const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
    child.stderr!.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
    bouncer.process = child;
    for (const deadline = Date.now() + 10_000; !(await listening(bouncer.port)); await sleep(100)) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}); see ${log} and ${dir}/pgbouncer.log`);
      if (Date.now() > deadline) throw new Error('pgbouncer did not listen within 10 s');
    }
    return bouncer;
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await Promise.race([exited, sleep(5_000)]);
  }
}
