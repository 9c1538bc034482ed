import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, testBusPrefix, type TestDatabase, type TestTemplate } from '@timeliner/platform/testing';

const root = path.resolve(import.meta.dirname, '..', '..');

/** A readiness probe on a connection of its own, so no keep-alive socket outlives the test. */
const isReady = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const req = get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2_000, () => req.destroy());
  });

const SERVICES = ['auth', 'timelines', 'social', 'search', 'notifications', 'media'];

/**
 * Every service's schema migrated by the built code (migrate-product.mjs), once per test run:
 * each journey's database is a copy, so the product's start finds nothing to apply. Keyed by the
 * built migrations, so a rebuild in the middle of a run makes a new one.
 */
const productTemplate = (): TestTemplate => {
  const digest = createHash('sha256');
  for (const service of SERVICES) {
    const dir = path.join(root, 'services', service, 'dist', 'migrations');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.js')).sort()) digest.update(`${service}/${file}\n`).update(readFileSync(path.join(dir, file)));
  }
  return {
    key: `product_${digest.digest('hex').slice(0, 12)}`,
    async build(url) {
      await promisify(execFile)(process.execPath, [path.join(root, 'e2e/support/migrate-product.mjs')], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: url } });
    },
  };
};

export interface RunningProduct {
  baseUrl: string;
  /** The product's DATA_DIR; e-mails (invitations) land in `mail/` inside it as .eml files. */
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The real product, started the way `npm start` does (deploy/single-process.mjs, built code and
 * the built web app), on its own database and data directory. Needs `npm run build` first,
 * which `npm test` does.
 */
export async function startProduct(label: string, env: Record<string, string> = {}): Promise<RunningProduct> {
  const db: TestDatabase = await createTestDatabase(label, { template: productTemplate() });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `tl-e2e-${label}-`));
  let log = '';
  // Both ports chosen by the system as the product binds them (a port found free beforehand can be
  // taken by another test's process before the product binds it); it prints where it listens.
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'deploy/single-process.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      PORT: '0',
      INTERNAL_PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      BUS_PREFIX: testBusPrefix(label),
      LOG_LEVEL: 'warn',
      NATS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`the product (${label}) exited with ${code ?? signal} before its test stopped it:\n${log.slice(-8_000)}\n`);
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 60_000;
  let baseUrl: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode}:\n${log}`);
    // Printed with the host it binds (localhost for 0.0.0.0); the tests use loopback's address.
    const port = /Timeliner is running at http:\/\/[^:\s]+:(\d+)/.exec(log)?.[1];
    if (port) baseUrl ??= `http://127.0.0.1:${port}`;
    const probes = /Probes and metrics \(this machine only\): (http:\/\/127\.0\.0\.1:\d+)\/health\/ready/.exec(log)?.[1];
    if (baseUrl && probes && (await isReady(`${probes}/health/ready`))) break;
    if (Date.now() > deadline) throw new Error(`the product did not become ready:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    baseUrl: baseUrl!,
    dataDir,
    output: () => log,
    async stop() {
      stopping = true;
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
