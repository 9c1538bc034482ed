#!/usr/bin/env node
// Runs the real topology on this machine, without containers: every service (and worker) and the
// gateway as its own process, against the Postgres and NATS named by DATABASE_URL and NATS_URL.
// `npm start` is the one-process variant with embedded defaults; this is the multi-process one
// that behaves like docker-compose.yml and k8s/.
//
//   DATABASE_URL=postgres://... NATS_URL=nats://127.0.0.1:4222 npm run start:services [-- --no-build]
//
// What it runs is discovered, not listed: every services/<name>/ with src/main.ts (except the
// shared runtime, services/platform) is a service, started from the bundle of its dist/main.js
// (dist/main.bundle.mjs, see bundle.mjs); a src/worker.ts next to it is started as
// `<name>-worker` from dist/worker.bundle.mjs. Each gets its own port from 3001
// up, in name order; the gateway gets PORT (default 8080) and a <NAME>_SERVICE_URL per service.
// Every child shares this environment (DATABASE_URL, NATS_URL, DATA_DIR, MAIL_URL, ...); services
// and workers get PUBLIC_ORIGIN=http://localhost:<gateway port> unless it is set.
// Services start first; the gateway starts once all of them answer /health/ready.
//
// Children run as in the containers, without source maps (they cost each process about a quarter
// of a second at start); NODE_OPTIONS=--enable-source-maps gives stack traces in the lines of the
// compiled files the bundles were made of.
//
// Ctrl-C / SIGTERM stops every child gracefully (a second Ctrl-C kills them). A child that dies on
// its own is restarted with backoff (1 s doubling to 30 s, back to 1 s once it has run for a
// minute) while the others keep running, as compose and Kubernetes do; one that exits 78 (its
// configuration is wrong, a restart cannot help) stops everything and this exits non-zero.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FIRST_SERVICE_PORT = 3001;
const READY_TIMEOUT_MS = 90_000;
/** A child's exit code for a configuration it cannot run with (EX_CONFIG): not worth a restart. */
const EX_CONFIG = 78;
const RESTART_DELAYS_MS = { first: 1_000, max: 30_000, stableAfter: 60_000 };

/** A process's compiled entry and the bundle that runs it: `dist/main.js` → `dist/main.bundle.mjs`. */
const entryOf = (base, name) => ({ source: join(base, 'dist', `${name}.js`), entry: join(base, 'dist', `${name}.bundle.mjs`) });

/** `media-worker` → `MEDIA_WORKER`, `auth` → `AUTH`. */
const envName = (name) => name.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * The processes to run, in start order: services and workers (each with its own port), then the
 * gateway, which is told where every service listens.
 * `source` is the compiled entry (tsc), `entry` the bundle made of it (deploy/bundle.mjs), which is what runs.
 * @returns {{ name: string, kind: 'service' | 'worker' | 'gateway', source: string, entry: string, port: number, env: Record<string, string> }[]}
 */
export function discoverApps(root = ROOT, env = process.env) {
  const servicesDir = join(root, 'services');
  const dirs = existsSync(servicesDir)
    ? readdirSync(servicesDir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== 'platform')
        .map((d) => d.name)
        .sort()
    : [];

  const gatewayPort = Number(env.PORT || 8080);
  // Links the services put in e-mails (invitations) lead to the gateway. Only the services get
  // this default: the gateway without PUBLIC_ORIGIN accepts WebSockets from whatever host the
  // page was loaded from (localhost or 127.0.0.1 alike).
  const appEnv = env.PUBLIC_ORIGIN ? {} : { PUBLIC_ORIGIN: `http://localhost:${gatewayPort}` };

  const apps = [];
  let port = FIRST_SERVICE_PORT;
  for (const dir of dirs) {
    const base = join('services', dir);
    if (existsSync(join(root, base, 'src', 'main.ts'))) {
      apps.push({ name: dir, kind: 'service', ...entryOf(base, 'main'), port: port++, env: { ...appEnv } });
    }
    if (existsSync(join(root, base, 'src', 'worker.ts'))) {
      apps.push({ name: `${dir}-worker`, kind: 'worker', ...entryOf(base, 'worker'), port: port++, env: { ...appEnv } });
    }
  }

  const serviceUrls = Object.fromEntries(
    apps.filter((a) => a.kind === 'service').map((a) => [`${envName(a.name)}_SERVICE_URL`, `http://127.0.0.1:${a.port}`]),
  );
  apps.push({
    name: 'gateway',
    kind: 'gateway',
    ...entryOf('gateway', 'main'),
    port: gatewayPort,
    env: { ...serviceUrls, WEB_DIST: env.WEB_DIST || join(root, 'frontend', 'dist') },
  });
  return apps;
}

/** The environment every child shares; fails with a clear message when a required value is missing. */
export function sharedEnv(env = process.env) {
  const missing = ['DATABASE_URL', 'NATS_URL'].filter((key) => !env[key]);
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(' and ')} must be set: this runs every service as its own process on a real ` +
        'Postgres and NATS (JetStream).\n' +
        '  e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/timeliner NATS_URL=nats://127.0.0.1:4222 npm run start:services\n' +
        '  For everything in one process on embedded defaults, use `npm start`.',
    );
  }
  // Services verify the identity headers the gateway signs; all of them need the same key.
  const INTERNAL_SECRET = env.INTERNAL_SECRET || randomBytes(32).toString('base64url');
  return { ...env, INTERNAL_SECRET };
}

/** Copies a stream to `out` line by line, each line prefixed with `prefix`. */
function pipeWithPrefix(stream, out, prefix) {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix}${line}\n`));
}

async function isReady(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Starts `apps` as child processes (services first, the gateway once they are ready) and keeps
 * them running, restarting any that dies, until SIGINT/SIGTERM, `stop()`, or a child that exits
 * 78. `done` resolves with the exit code for this process: 0 after a requested stop, 1 when a
 * child's configuration is wrong or a child never got ready.
 */
export function supervise(
  apps,
  { root = ROOT, env = process.env, out = process.stdout, err = process.stderr, readyTimeoutMs = READY_TIMEOUT_MS, restartDelays = RESTART_DELAYS_MS } = {},
) {
  const log = (message) => out.write(`${message}\n`);
  const width = Math.max(...apps.map((a) => a.name.length));
  const graceMs = (Number(env.SHUTDOWN_GRACE_SECONDS) || 20) * 1000 + 5000;
  /** @type {Map<string, import('node:child_process').ChildProcess>} */
  const running = new Map();
  /** Per app: the delay before its next restart, and restarts pending. */
  const restarts = new Map();
  const pendingRestarts = new Set();
  let stopping = false;
  let exitCode = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));

  const start = (app) => {
    const child = spawn(process.execPath, [app.entry], {
      cwd: root,
      env: { ...env, ...app.env, PORT: String(app.port), HOST: app.kind === 'gateway' ? env.HOST || '0.0.0.0' : '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = `${app.name.padEnd(width)} | `;
    pipeWithPrefix(child.stdout, out, prefix);
    pipeWithPrefix(child.stderr, err, prefix);
    running.set(app.name, child);
    const startedAt = Date.now();
    child.on('error', (error) => log(`${prefix}failed to start: ${error.message}`));
    child.on('exit', (code, signal) => {
      running.delete(app.name);
      if (!stopping) {
        const how = signal ?? `code ${code}`;
        if (code === EX_CONFIG) {
          log(`${prefix}exited (${how}): its configuration is wrong; stopping the others`);
          stop(1);
          return;
        }
        // A run that lasted a while was a crash, not a crash loop: start counting again.
        const previous = Date.now() - startedAt >= restartDelays.stableAfter ? undefined : restarts.get(app.name);
        const delay = previous === undefined ? restartDelays.first : Math.min(previous * 2, restartDelays.max);
        restarts.set(app.name, delay);
        log(`${prefix}exited unexpectedly (${how}); restarting in ${delay / 1000} s`);
        const timer = setTimeout(() => {
          pendingRestarts.delete(timer);
          if (!stopping) start(app);
        }, delay);
        pendingRestarts.add(timer);
      } else if (running.size === 0) {
        clearTimeout(killTimer);
        resolveDone(exitCode);
      }
    });
  };

  let killTimer;
  const stop = (code) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    for (const timer of pendingRestarts) clearTimeout(timer);
    pendingRestarts.clear();
    if (running.size === 0) return resolveDone(exitCode);
    for (const child of running.values()) child.kill('SIGTERM');
    killTimer = setTimeout(() => {
      log(`still running after ${graceMs / 1000}s: ${[...running.keys()].join(', ')}; killing`);
      for (const child of running.values()) child.kill('SIGKILL');
    }, graceMs);
  };

  const onSignal = (signal) => {
    if (stopping) {
      for (const child of running.values()) child.kill('SIGKILL');
      return;
    }
    log(`${signal}: stopping ${running.size} process(es)`);
    stop(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  void done.then(() => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  });

  const waitReady = async (group) => {
    const deadline = Date.now() + readyTimeoutMs;
    const pending = new Set(group);
    while (pending.size > 0 && !stopping) {
      for (const app of pending) if (await isReady(app.port)) pending.delete(app);
      if (pending.size === 0) return true;
      if (Date.now() > deadline) {
        log(`not ready after ${readyTimeoutMs / 1000}s: ${[...pending].map((a) => a.name).join(', ')}`);
        stop(1);
        return false;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return !stopping;
  };

  void (async () => {
    const backends = apps.filter((a) => a.kind !== 'gateway');
    const gateways = apps.filter((a) => a.kind === 'gateway');
    backends.forEach(start);
    if (!(await waitReady(backends))) return;
    gateways.forEach(start);
    if (!(await waitReady(gateways))) return;
    for (const g of gateways) log(`ready: http://localhost:${g.port} (${backends.map((a) => `${a.name} :${a.port}`).join(', ') || 'no services'})`);
  })();

  // pidOf: the running process of an app (the fault suite kills them as a crash would).
  return { done, stop: () => stop(0), pidOf: (name) => running.get(name)?.pid };
}

function build(root, apps, env) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-b'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('`tsc -b` failed');
  const bundled = spawnSync(process.execPath, [join(root, 'deploy', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
  if (bundled.status !== 0) throw new Error('bundling the apps failed');

  if (!env.WEB_DIST && !existsSync(join(root, 'frontend', 'dist', 'index.html'))) {
    const npm = spawnSync('npm', ['run', 'build', '-w', '@timeliner/frontend'], { cwd: root, stdio: 'inherit' });
    if (npm.status !== 0) throw new Error('building the frontend failed');
  }

  const missing = apps.filter((a) => !existsSync(join(root, a.entry))).map((a) => a.entry);
  if (missing.length > 0) throw new Error(`not built: ${missing.join(', ')}`);
}

async function main(argv) {
  try {
    const env = sharedEnv();
    const apps = discoverApps(ROOT, env);
    if (!argv.includes('--no-build')) build(ROOT, apps, env);
    const names = apps.map((a) => `${a.name}:${a.port}`).join(' ');
    console.log(`starting ${names}${process.env.INTERNAL_SECRET ? '' : ' (generated INTERNAL_SECRET for this run)'}`);
    process.exitCode = await supervise(apps, { env }).done;
  } catch (err) {
    console.error(`run-services: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
