// The processes a bench starts: the product's services and gateway, each its own process on a free
// port (as deploy/run-services.mjs starts them), their output kept for when one fails, and all of
// them stopped by lib/cleanup.mjs (at the bench's end, or when it is stopped with Ctrl-C or SIGTERM).
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { discoverApps, sharedEnv } from '../../deploy/run-services.mjs';
import { stopOnCleanup, stopping } from './cleanup.mjs';

let output = '';
/** BENCH_PROCESS_LOG=<file>: everything the started processes print, each line prefixed with its name. */
const logFile = process.env.BENCH_PROCESS_LOG;
const collect = (prefix) => (chunk) => {
  const lines = chunk.toString().replace(/^/gm, prefix);
  output = (output + lines).slice(-20_000);
  if (logFile) appendFileSync(logFile, lines);
};

/** The last 20,000 characters the started processes printed, each line prefixed with its name. */
export const processOutput = () => output;

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitReady(port, child, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited before ready:\n${output.slice(-4000)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`:${port} not ready:\n${output.slice(-4000)}`);
    await sleep(100);
  }
}

/** BENCH_NODE_ARGS: options for every started process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** Starts `entry` (relative to `root`) on `port` with `processEnv` and waits for its /health/ready (on `readyPort`, the gateway's internal port). */
export function startProcess(root, name, entry, processEnv, port, readyPort = port) {
  if (stopping()) return Promise.reject(new Error(`not starting ${name}: the bench is stopping`));
  const child = spawn(process.execPath, [...nodeArgs, join(root, entry)], {
    cwd: root,
    env: { ...processEnv, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', collect(`${name} | `));
  child.stderr.on('data', collect(`${name} | `));
  stopOnCleanup(child, name);
  return waitReady(readyPort, child);
}

/**
 * Every service and the gateway of `root`: the services first, then the gateway pointed at them.
 * Answers the gateway's URL, each service's URL by name, and the identity secret they share.
 */
export async function startTopology(root, baseEnv) {
  const shared = sharedEnv({ ...baseEnv, PORT: '0' });
  const apps = discoverApps(root, shared);
  const ports = new Map();
  for (const app of apps) ports.set(app.name, await freePort());
  const gateway = apps.find((a) => a.kind === 'gateway');
  for (const app of apps.filter((a) => a.kind === 'service')) {
    gateway.env[`${app.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_SERVICE_URL`] = `http://127.0.0.1:${ports.get(app.name)}`;
  }
  const base = `http://127.0.0.1:${ports.get(gateway.name)}`;
  const internalPort = await freePort();
  gateway.env.INTERNAL_PORT = String(internalPort);
  const start = (list) => Promise.all(list.map((app) => startProcess(root, app.name, app.entry, { ...shared, PUBLIC_ORIGIN: base, ...app.env }, ports.get(app.name), app === gateway ? internalPort : undefined)));
  await start(apps.filter((a) => a.kind !== 'gateway'));
  await start([gateway]);
  return { base, service: (name) => `http://127.0.0.1:${ports.get(name)}`, secret: shared.INTERNAL_SECRET };
}
