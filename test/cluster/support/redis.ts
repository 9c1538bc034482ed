// A redis-server of the cluster suite's own (the gateways' shared rate limits), on a free port,
// nothing kept on disk.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { freePort, sleep } from '../../faults/support/infra.js';

export class RedisServer {
  private constructor(
    private readonly process: ChildProcess,
    readonly port: number,
  ) {}

  static async start(log: string): Promise<RedisServer> {
    const binary = process.env.CLUSTER_REDIS_SERVER ?? 'redis-server';
    if (spawnSync(binary, ['--version']).status !== 0) throw new Error(`No ${binary} on PATH (apt-get install -y redis-server, or set CLUSTER_REDIS_SERVER)`);
    const port = await freePort();
    const child = spawn(binary, ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
    child.stderr!.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
    for (const deadline = Date.now() + 10_000; ; await sleep(100)) {
      if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}); see ${log}`);
      const open = await new Promise<boolean>((resolve) => {
        const socket = new Socket();
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
        socket.connect(port, '127.0.0.1');
      });
      if (open) return new RedisServer(child, port);
      if (Date.now() > deadline) throw new Error('redis-server did not listen within 10 s');
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.kill('SIGTERM');
    await exited;
  }
}
