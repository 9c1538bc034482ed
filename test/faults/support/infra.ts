// A Postgres cluster and a NATS server of the fault suite's own, on their own ports and
// directories, so it can crash and stop them without touching the machine's shared ones.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';

const PG_BIN = process.env.FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Postgres refuses to run as root: as root, its commands run as the `postgres` user. */
function asPostgres(command: string, args: string[]): { command: string; args: string[] } {
  return process.getuid?.() === 0 ? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { command, args };
}

function run(command: string, args: string[], log: string): void {
  const wrapped = asPostgres(command, args);
  const result = spawnSync(wrapped.command, wrapped.args, { encoding: 'utf8' });
  appendFileSync(log, `$ ${command} ${args.join(' ')}\n${result.stdout}${result.stderr}`);
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr}`);
}

/** A cluster made with initdb in `dir`, controlled with pg_ctl: started, stopped as a crash would, started again. */
export class PostgresCluster {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly log: string,
  ) {}

  static async create(dir: string, log: string): Promise<PostgresCluster> {
    if (!existsSync(join(PG_BIN, 'initdb'))) throw new Error(`No PostgreSQL binaries in ${PG_BIN} (set FAULTS_PG_BIN)`);
    mkdirSync(join(dir, 'socket'), { recursive: true });
    if (process.getuid?.() === 0) {
      const { uid, gid } = postgresUser();
      for (const path of [dir, join(dir, 'socket')]) chownSync(path, uid, gid);
    }
    const cluster = new PostgresCluster(dir, await freePort(), log);
    run(join(PG_BIN, 'initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], log);
    await cluster.start();
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${join(this.dir, 'socket')} -c listen_addresses=127.0.0.1 -c max_connections=200`;
    run(join(PG_BIN, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-l', join(this.dir, 'postgres.log'), '-o', options, '-w', 'start'], this.log);
  }

  /** `immediate`: every process ends at once, as in a crash; the next start recovers from the WAL. */
  stop(mode: 'immediate' | 'fast' = 'immediate'): void {
    run(join(PG_BIN, 'pg_ctl'), ['-D', join(this.dir, 'data'), '-m', mode, '-w', 'stop'], this.log);
  }

  async query<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      return (await client.query<Row>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** nats-server with JetStream on its own port and store directory. */
export class NatsServer {
  private process: ChildProcess | undefined;

  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly log: string,
  ) {}

  static async start(dir: string, log: string): Promise<NatsServer> {
    const binary = process.env.FAULTS_NATS_SERVER ?? 'nats-server';
    if (spawnSync(binary, ['--version']).status !== 0) throw new Error(`No ${binary} on PATH (apt-get install nats-server, or set FAULTS_NATS_SERVER)`);
    const server = new NatsServer(dir, await freePort(), log);
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const binary = process.env.FAULTS_NATS_SERVER ?? 'nats-server';
    const child = spawn(binary, ['-js', '-sd', join(this.dir, 'jetstream'), '-a', '127.0.0.1', '-p', String(this.port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => appendFileSync(this.log, chunk));
    child.stderr!.on('data', (chunk: Buffer) => appendFileSync(this.log, chunk));
    this.process = child;
    for (const deadline = Date.now() + 10_000; ; await sleep(100)) {
      if (child.exitCode !== null) throw new Error(`nats-server exited (${child.exitCode}); see ${this.log}`);
      const open = await new Promise<boolean>((resolve) => {
        const socket = new Socket();
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
        socket.connect(this.port, '127.0.0.1');
      });
      if (open) return;
      if (Date.now() > deadline) throw new Error('nats-server did not listen within 10 s');
    }
  }

  /** kill -9: JetStream recovers its streams from the store directory on the next start. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
