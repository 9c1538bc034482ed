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
// up, in name order; the gateway gets PORT (default 8080) and a <NAME>_SERVICE_URL per service,
// and serves its probes and metrics on INTERNAL_PORT (default PORT + 1) of loopback, where this
// supervisor asks whether it is ready.
// Every child shares this environment (DATABASE_URL, NATS_URL, DATA_DIR, MAIL_URL, PUBLIC_ORIGIN,
// ...); without PUBLIC_ORIGIN, invitation links lead to the address each request came in on.
// Services start first; the gateway starts once all of them answer /health/ready.
//
// Children run as in the containers, without source maps (they cost each process about a quarter
// of a second at start); NODE_OPTIONS=--enable-source-maps gives stack traces in the lines of the
// compiled files the bundles were made of.
//
// Replicas: `-- --replicas N` (or REPLICAS=N) runs N processes of every service, worker and
// gateway, each on a port of its own (from 3101 up), with HAProxy in front as Kubernetes would put
// Services: PORT balances over the gateways, and each service's usual port (3001, ...) over its
// replicas, so the gateways' <NAME>_SERVICE_URLs are the same as with one. HAProxy checks every
// replica's /health/ready each second, answers /health/ready on INTERNAL_PORT once every backend
// has a replica up (its statistics at /stats there), sends a request whose connection was refused
// (and a read that got no answer or a 503) to another replica, never replays a write, and answers
// 503 with Retry-After when a backend has none. Its configuration is generated into a temporary directory; it needs `haproxy` on PATH
// (apt-get install -y haproxy; or HAPROXY=/path/to/haproxy). Gateways behind it trust one proxy
// hop (TRUST_PROXY=1 unless set); set REDIS_URL for one rate-limit budget across them.
//
// Ctrl-C / SIGTERM stops every child gracefully (a second Ctrl-C kills them). A child that dies on
// its own is restarted with backoff (1 s doubling to 30 s, back to 1 s once it has run for a
// minute) while the others keep running, as compose and Kubernetes do; one that exits 78 (its
// configuration is wrong, a restart cannot help) stops everything and this exits non-zero.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FIRST_SERVICE_PORT = 3001;
/** Where the replicas' own ports start when there are several of each (`--replicas N`). */
export const FIRST_REPLICA_PORT = 3101;
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
 * `readyPort`, when there is one, is where the app answers /health/ready (the gateway's internal port).
 * @returns {{ name: string, kind: 'service' | 'worker' | 'gateway', source: string, entry: string, port: number, readyPort?: number, env: Record<string, string> }[]}
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

  const apps = [];
  let port = FIRST_SERVICE_PORT;
  for (const dir of dirs) {
    const base = join('services', dir);
    if (existsSync(join(root, base, 'src', 'main.ts'))) {
      apps.push({ name: dir, kind: 'service', ...entryOf(base, 'main'), port: port++, env: {} });
    }
    if (existsSync(join(root, base, 'src', 'worker.ts'))) {
      apps.push({ name: `${dir}-worker`, kind: 'worker', ...entryOf(base, 'worker'), port: port++, env: {} });
    }
  }

  const serviceUrls = Object.fromEntries(
    apps.filter((a) => a.kind === 'service').map((a) => [`${envName(a.name)}_SERVICE_URL`, `http://127.0.0.1:${a.port}`]),
  );
  // Probes and metrics never on the public port: on their own, of loopback unless INTERNAL_HOST says otherwise.
  const internalPort = Number(env.INTERNAL_PORT || (gatewayPort ? gatewayPort + 1 : 0));
  apps.push({
    name: 'gateway',
    kind: 'gateway',
    ...entryOf('gateway', 'main'),
    port: gatewayPort,
    ...(internalPort ? { readyPort: internalPort } : {}),
    env: { ...serviceUrls, WEB_DIST: env.WEB_DIST || join(root, 'frontend', 'dist'), INTERNAL_PORT: String(internalPort) },
  });
  return apps;
}

/**
 * `apps` with `replicas` processes of each (named `<name>-1`, `<name>-2`, ...) on ports from
 * `nextPort` (default FIRST_REPLICA_PORT up), and HAProxy in front of them (`kind: 'balancer'`,
 * first in the list): on each service's own port over its replicas (so the gateways'
 * <NAME>_SERVICE_URLs stay as they are), on the gateway's port over the gateways, and on the
 * gateway's internal port its readiness (/health/ready: every backend has a replica up) and
 * statistics (/stats). With one replica, `apps` as they are.
 * @returns {ReturnType<typeof discoverApps>}
 */
export function replicate(apps, replicas, { env = process.env, nextPort } = {}) {
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`replicas must be a whole number of at least 1, not ${replicas}`);
  if (replicas === 1) return apps;
  let port = FIRST_REPLICA_PORT;
  const allocate = nextPort ?? (() => port++);
  const copies = (app) =>
    Array.from({ length: replicas }, (_, i) => ({ ...app, name: `${app.name}-${i + 1}`, port: allocate(), env: { ...app.env } }));

  const processes = [];
  const backends = [];
  for (const app of apps.filter((a) => a.kind !== 'gateway')) {
    const group = copies(app);
    processes.push(...group);
    if (app.kind === 'service') backends.push({ name: app.name, port: app.port, servers: group.map((c) => ({ name: c.name, port: c.port, checkPort: c.port })) });
  }
  const gateway = apps.find((a) => a.kind === 'gateway');
  if (gateway) {
    const group = copies(gateway).map((copy) => {
      const internalPort = allocate();
      // Behind HAProxy: the client is the address it saw (X-Forwarded-For), one hop.
      return { ...copy, readyPort: internalPort, env: { ...copy.env, INTERNAL_PORT: String(internalPort), ...(env.TRUST_PROXY ? {} : { TRUST_PROXY: '1' }) } };
    });
    processes.push(...group);
    const balancer = {
      name: 'haproxy',
      kind: 'balancer',
      source: '',
      entry: '',
      port: gateway.port,
      ...(gateway.readyPort ? { readyPort: gateway.readyPort } : {}),
      env: {},
    };
    balancer.config = haproxyConfig({
      publicHost: env.HOST || '0.0.0.0',
      publicPort: gateway.port,
      monitor: gateway.readyPort ? { host: env.INTERNAL_HOST || '127.0.0.1', port: gateway.readyPort } : undefined,
      gateways: group.map((g) => ({ name: g.name, port: g.port, checkPort: g.readyPort })),
      services: backends,
    });
    return [balancer, ...processes];
  }
  return processes;
}

/**
 * HAProxy's configuration for `replicate`: round robin over the replicas, each checked on
 * /health/ready every second (down after two failures, up after one success). Every request
 * goes to a replica on a connection of its own (http-server-close), so none is sent on a kept-alive
 * connection that a stopping replica is closing. A request whose connection was refused goes to
 * another replica (a stopping replica has closed its listener; nothing reached it). A read (GET,
 * HEAD, OPTIONS) also goes to another replica when it got no answer or a 503; a write does not:
 * it may have been applied, and replaying it is the client's decision, as the gateway never
 * replays one either. A 503 without Retry-After (a stopping replica's) gets one. No replica up:
 * 503 with Retry-After, as the apps answer.
 */
export function haproxyConfig({ publicHost, publicPort, monitor, gateways, services }) {
  const server = (s) => `  server ${s.name} 127.0.0.1:${s.port} check${s.checkPort !== s.port ? ` port ${s.checkPort}` : ''}`;
  const backend = (name, servers) => [
    `backend ${name}`,
    '  balance roundrobin',
    '  http-request disable-l7-retry unless METH_GET || METH_HEAD || METH_OPTIONS',
    // A replica that began to stop answers a request it accepted just before with 503 and no
    // Retry-After (Fastify's return503OnClosing): nothing was done, so the client is told when to retry.
    '  http-response set-header retry-after 2 if { status 503 } !{ res.hdr(retry-after) -m found }',
    '  option httpchk GET /health/ready',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 1',
    ...servers.map(server),
    '',
  ];
  const unavailable =
    '  http-error status 503 content-type application/json hdr retry-after 2 ' +
    `string '{"statusCode":503,"error":"Service Unavailable","message":"No replica is available, try again shortly"}'`;
  const lines = [
    '# Generated by deploy/run-services.mjs (--replicas); not edited by hand.',
    'global',
    // Within the usual open-file limit (HAProxy needs about two descriptors a connection).
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // Uploads and long answers stream: these are idle times, not request durations.
    '  timeout client 10m',
    '  timeout server 10m',
    // Longer than the gateway keeps an idle upstream connection (30 s): it closes them, not HAProxy.
    '  timeout http-keep-alive 120s',
    '  timeout tunnel 1h',
    '  retries 3',
    '  option redispatch 1',
    '  option http-server-close',
    '  retry-on conn-failure empty-response 503',
    unavailable,
    '',
    `frontend public`,
    `  bind ${publicHost}:${publicPort}`,
    '  option forwardfor',
    '  default_backend gateways',
    '',
    ...backend('gateways', gateways),
    ...services.flatMap((s) => [`frontend ${s.name}`, `  bind 127.0.0.1:${s.port}`, `  default_backend ${s.name}`, '', ...backend(s.name, s.servers)]),
  ];
  if (monitor) {
    const all = ['gateways', ...services.map((s) => s.name)];
    lines.push(
      'frontend monitor',
      `  bind ${monitor.host}:${monitor.port}`,
      ...all.map((name) => `  acl ${name}_down nbsrv(${name}) lt 1`),
      '  monitor-uri /health/ready',
      `  monitor fail if ${all.map((name) => `${name}_down`).join(' || ')}`,
      '  stats enable',
      '  stats uri /stats',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The replica count asked for: `--replicas N` or `--replicas=N`, else REPLICAS, else 1. */
export function replicasOf(argv, env = process.env) {
  const at = argv.findIndex((arg) => arg === '--replicas' || arg.startsWith('--replicas='));
  const raw = at < 0 ? env.REPLICAS || '1' : argv[at].includes('=') ? argv[at].slice('--replicas='.length) : argv[at + 1];
  const replicas = Number(raw);
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`--replicas (or REPLICAS) must be a whole number of at least 1, not ${raw}`);
  return replicas;
}

/** Fails with what to install when `apps` need HAProxy and it is not there. */
export function checkBalancer(apps, env = process.env) {
  if (!apps.some((a) => a.kind === 'balancer')) return;
  const haproxy = env.HAPROXY || 'haproxy';
  const found = spawnSync(haproxy, ['-v'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(`several replicas run behind HAProxy, and \`${haproxy}\` is not there: apt-get install -y haproxy (Debian, Ubuntu), or set HAPROXY to its path`);
  }
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

  // Behind HAProxy (replicas) the gateways listen on loopback; it takes the public address.
  const balanced = apps.some((a) => a.kind === 'balancer');
  let configDir;
  /** The command of an app: its bundle on Node, or HAProxy on its configuration (written once, checked first). */
  const commandOf = (app) => {
    if (app.kind !== 'balancer') return [process.execPath, [app.entry]];
    const haproxy = env.HAPROXY || 'haproxy';
    const file = join((configDir ??= mkdtempSync(join(tmpdir(), 'timeliner-haproxy-'))), `${app.name}.cfg`);
    if (!existsSync(file)) {
      writeFileSync(file, app.config);
      const checked = spawnSync(haproxy, ['-c', '-q', '-f', file], { encoding: 'utf8' });
      if (checked.status !== 0) throw new Error(`HAProxy refuses ${file}: ${checked.error?.message ?? checked.stderr}`);
    }
    return [haproxy, ['-db', '-f', file]];
  };

  const start = (app) => {
    let command;
    try {
      command = commandOf(app);
    } catch (error) {
      log(`${app.name}: ${error.message}; stopping the others`);
      stop(1);
      return;
    }
    const child = spawn(command[0], command[1], {
      cwd: root,
      env: { ...env, ...app.env, PORT: String(app.port), HOST: app.kind === 'gateway' && !balanced ? env.HOST || '0.0.0.0' : '127.0.0.1' },
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
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  const waitReady = async (group) => {
    const deadline = Date.now() + readyTimeoutMs;
    const pending = new Set(group);
    while (pending.size > 0 && !stopping) {
      for (const app of pending) if (await isReady(app.readyPort ?? app.port)) pending.delete(app);
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
    const balancers = apps.filter((a) => a.kind === 'balancer');
    const backends = apps.filter((a) => a.kind !== 'gateway' && a.kind !== 'balancer');
    const gateways = apps.filter((a) => a.kind === 'gateway');
    // HAProxy first: its checks find each replica as it gets ready.
    balancers.forEach(start);
    backends.forEach(start);
    if (!(await waitReady(backends))) return;
    gateways.forEach(start);
    if (!(await waitReady(gateways))) return;
    if (balancers.length > 0) {
      if (!(await waitReady(balancers))) return;
      for (const b of balancers) {
        log(`ready: http://localhost:${b.port} (HAProxy over ${gateways.map((g) => `${g.name} :${g.port}`).join(', ')}; ${backends.map((a) => `${a.name} :${a.port}`).join(', ')})`);
        if (b.readyPort) log(`HAProxy's readiness and statistics: http://${env.INTERNAL_HOST || '127.0.0.1'}:${b.readyPort} (/health/ready, /stats); each gateway's probes and metrics on its own internal port`);
      }
      return;
    }
    for (const g of gateways) {
      log(`ready: http://localhost:${g.port} (${backends.map((a) => `${a.name} :${a.port}`).join(', ') || 'no services'})`);
      if (g.readyPort) log(`probes and metrics: http://${env.INTERNAL_HOST || '127.0.0.1'}:${g.readyPort} (/health/live, /health/ready, /metrics)`);
    }
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
    const replicas = replicasOf(argv, env);
    const apps = replicate(discoverApps(ROOT, env), replicas, { env });
    checkBalancer(apps, env);
    if (replicas > 1 && !env.REDIS_URL) console.log(`${replicas} gateways without REDIS_URL: each counts its own rate limits (set REDIS_URL for one budget across them)`);
    if (!argv.includes('--no-build')) build(ROOT, apps.filter((a) => a.kind !== 'balancer'), env);
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
