// Three nats-servers clustered on loopback, JetStream on each (its own store directory), as the
// `nats-cluster` component of k8s/ and docker-compose.yml run them on three machines.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort, sleep } from '../../faults/support/infra.js';

const binary = () => process.env.FAULTS_NATS_SERVER ?? 'nats-server';

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

export class ClusterNode {
  private process: ChildProcess | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly config: string,
    private readonly log: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  async start(): Promise<void> {
    const child = spawn(binary(), ['-c', this.config], { stdio: ['ignore', 'pipe', 'pipe'] });
    const write = (chunk: Buffer) => appendFileSync(this.log, chunk);
    child.stdout!.on('data', write);
    child.stderr!.on('data', write);
    this.process = child;
    for (const deadline = Date.now() + 10_000; !(await listening(this.port)); await sleep(100)) {
      if (child.exitCode !== null) throw new Error(`${this.name} exited (${child.exitCode}); see ${this.log}`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not listen within 10 s`);
    }
  }

  /** kill -9: no goodbye to the others; its store is recovered (and caught up) on the next start. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

export class NatsCluster {
  private constructor(readonly nodes: ClusterNode[]) {}

  /** Three servers, routes to each other, JetStream clustered under the name `timeliner`. */
  static async start(dir: string, log: string, size = 3): Promise<NatsCluster> {
    if (spawnSync(binary(), ['--version']).status !== 0) throw new Error(`No ${binary()} on PATH (apt-get install nats-server, or set FAULTS_NATS_SERVER)`);
    const clientPorts = await Promise.all(Array.from({ length: size }, () => freePort()));
    const routePorts = await Promise.all(Array.from({ length: size }, () => freePort()));
    const routes = routePorts.map((port) => `nats-route://127.0.0.1:${port}`).join(', ');
    const nodes = clientPorts.map((port, i) => {
      const name = `n${i + 1}`;
      const home = join(dir, name);
      mkdirSync(home, { recursive: true });
      const config = join(home, 'nats.conf');
      writeFileSync(
        config,
        [
          `server_name: ${name}`,
          `listen: 127.0.0.1:${port}`,
          `jetstream { store_dir: "${join(home, 'jetstream')}" }`,
          `cluster { name: timeliner, listen: 127.0.0.1:${routePorts[i]}, routes: [${routes}] }`,
        ].join('\n'),
      );
      return new ClusterNode(name, port, config, log);
    });
    await Promise.all(nodes.map((node) => node.start()));
    const cluster = new NatsCluster(nodes);
    await cluster.waitForMetaLeader(30_000);
    return cluster;
  }

  /** What a client is given: every server, so it moves to another when one goes. */
  get url(): string {
    return this.nodes.map((node) => node.url).join(',');
  }

  node(name: string): ClusterNode {
    const found = this.nodes.find((n) => n.name === name);
    if (!found) throw new Error(`no node ${name}`);
    return found;
  }

  private async manager<T>(use: (jsm: Awaited<ReturnType<typeof jetstreamManager>>) => Promise<T>): Promise<T> {
    const nc = await connect({ servers: this.nodes.filter((n) => n.running).map((n) => n.url), timeout: 2_000 });
    try {
      return await use(await jetstreamManager(nc, { timeout: 5_000 }));
    } finally {
      await nc.close();
    }
  }

  async waitForMetaLeader(ms: number): Promise<void> {
    for (const deadline = Date.now() + ms; ; await sleep(250)) {
      const ok = await this.manager(async (jsm) => (await jsm.getAccountInfo()).streams >= 0).catch(() => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error('the JetStream cluster elected no meta leader');
    }
  }

  /** The stream's leader and replicas, as the cluster reports them. */
  async streamCluster(stream: string): Promise<{ leader: string; replicas: Array<{ name: string; current: boolean; offline?: boolean }>; replicasConfigured: number }> {
    return this.manager(async (jsm) => {
      const info = await jsm.streams.info(stream);
      return {
        leader: info.cluster?.leader ?? '',
        replicas: (info.cluster?.replicas ?? []).map((r) => ({ name: r.name, current: r.current, offline: r.offline })),
        replicasConfigured: info.config.num_replicas,
      };
    });
  }

  /** Until every stream has a leader and all its other replicas are current again. */
  async waitUntilCaughtUp(streams: string[], ms: number): Promise<void> {
    for (const deadline = Date.now() + ms; ; await sleep(250)) {
      const states = await Promise.all(streams.map((s) => this.streamCluster(s).catch(() => undefined)));
      if (states.every((c) => c && c.leader !== '' && c.replicas.length === this.nodes.length - 1 && c.replicas.every((r) => r.current && !r.offline))) return;
      if (Date.now() > deadline) throw new Error(`streams not caught up within ${ms / 1000} s: ${JSON.stringify(states)}`);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.kill()));
  }
}
