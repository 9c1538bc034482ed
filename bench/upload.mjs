#!/usr/bin/env node
// Upload benchmark (DESIGN.md section 8, "upload"): a large tus 1.0 resumable upload through the
// gateway of the real multi-process topology, against the disk's own sequential write speed, with
// the RSS of the gateway and the media service sampled throughout, then a kill -9 resume check.
//
//   npm run build   (the services, the gateway and the web app must be built)
//   node bench/upload.mjs
//
// Steps:
//   1. disk: 1 GiB written to DATA_DIR in 8 MiB blocks, fsync'd, timed, deleted; three times before
//      the uploads and three times after, compared against the median (the disk here varies);
//   2. a scratch database (CREATE DATABASE on ADMIN_DATABASE_URL), a temp DATA_DIR, a unique
//      BUS_PREFIX, and `node deploy/run-services.mjs --no-build` on a free PORT; a user and a
//      timeline are created through the API;
//   3. UPLOAD_BENCH_MB (2048) of pseudo-random bytes behind an MP4 header, made and SHA-256 hashed
//      in memory before timing, through tus-js-client at each chunk size in UPLOAD_BENCH_CHUNKS_MB
//      (64,256); VmRSS of the gateway and media processes every 200 ms; the stored original is
//      hashed and compared; then the same upload through a second gateway whose media service is a
//      sink that reads and drops the bytes: the ceiling of the HTTP path here, nothing stored;
//   4. resume: the topology is started process by process (run-services stops everything when one
//      child dies), UPLOAD_RESUME_MB (512) is uploaded with the web app's chunk size and retry
//      schedule, and the media service (then the gateway) is killed with SIGKILL at ~40%: first
//      with one instance of each, restarted at once with the same environment, then with two
//      replicas of each behind a round-robin balancer (as k8s/base runs them), the victim left
//      down; printed: the seconds from the kill until a chunk sent after it is stored and
//      acknowledged;
//   5. everything is removed: processes, database, temp dirs, the prefix's NATS streams; also when the
//      bench is stopped with Ctrl-C or SIGTERM (lib/cleanup.mjs).
//
// Env: ADMIN_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), NATS_URL
// (nats://127.0.0.1:4222), BENCH_DATA_PARENT (os.tmpdir()), UPLOAD_BENCH_MB, UPLOAD_BENCH_CHUNKS_MB,
// UPLOAD_RESUME_MB, UPLOAD_BENCH_DISK_MB (1024), UPLOAD_BENCH_KEEP=1 keeps the data dir and logs,
// BENCH_TRACE=1 prints every tus answer of the resume phase; UPLOAD_BENCH_PHASES (throughput,resume),
// UPLOAD_BENCH_REPLICAS (1,2) and UPLOAD_BENCH_VICTIMS (media,gateway) narrow what runs.
// BENCH_CHILD_NODE_OPTIONS is passed to the started processes as NODE_OPTIONS (e.g. a --require
// that profiles them); they get none otherwise.
// Bars: throughput ≥ 60% of the disk's; RSS growth < 100 MB per process; resume ≤ 2 s.
import { spawn } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as tus from 'tus-js-client';
import { discoverApps, sharedEnv } from '../deploy/run-services.mjs';
import { cleanup, interrupted, onCleanup, stopping } from './lib/cleanup.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
const env = process.env;
const SIZE = Math.round(Number(env.UPLOAD_BENCH_MB || 2048) * MiB);
const CHUNKS = (env.UPLOAD_BENCH_CHUNKS_MB || '64,256').split(',').map((s) => Math.round(Number(s) * MiB));
const RESUME_SIZE = Math.round(Number(env.UPLOAD_RESUME_MB || 512) * MiB);
const DISK_SIZE = Math.round(Number(env.UPLOAD_BENCH_DISK_MB || 1024) * MiB);
const ADMIN_URL = env.ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = env.NATS_URL || 'nats://127.0.0.1:4222';
const KEEP = env.UPLOAD_BENCH_KEEP === '1';
const PHASES = new Set((env.UPLOAD_BENCH_PHASES || 'throughput,resume').split(','));
const MAX_TUS = 2 * 1024 * MiB; // Tus-Max-Size
const BARS = { diskRatio: 0.6, rssGrowthMb: 100, resumeSeconds: 2 };

if (SIZE > MAX_TUS) throw new Error(`UPLOAD_BENCH_MB over the 2 GiB the service accepts`);
for (const entry of ['gateway/dist/main.bundle.mjs', 'services/media/dist/main.bundle.mjs', 'frontend/dist/index.html']) {
  if (!existsSync(join(ROOT, entry))) {
    console.error(`not built: ${entry}; run npm run build first`);
    process.exit(1);
  }
}

const t0 = performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => bytes / MiB;
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
const cpuSeconds = async (pid) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, counted in clock ticks (100 per second on Linux).
  return fields.length > 13 ? (Number(fields[11]) + Number(fields[12])) / 100 : NaN;
};
const cpuOf = async (pids) => Object.fromEntries(await Promise.all(Object.entries(pids).map(async ([n, pid]) => [n, await cpuSeconds(pid)])));

const rssMb = async (pid) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : NaN;
};

/** Samples VmRSS of named pids every 200 ms; `mark(label)` records the current value. */
function rssSampler(pids) {
  const stats = Object.fromEntries(Object.keys(pids).map((n) => [n, { max: 0, marks: {} }]));
  const sample = async () => {
    for (const [name, pid] of Object.entries(pids)) {
      const v = await rssMb(pid);
      if (Number.isFinite(v)) stats[name].max = Math.max(stats[name].max, v);
    }
  };
  const timer = setInterval(() => void sample(), 200);
  return {
    stats,
    async mark(label) {
      for (const [name, pid] of Object.entries(pids)) stats[name].marks[label] = await rssMb(pid);
      await sample();
    },
    resetMax() {
      for (const s of Object.values(stats)) s.max = 0;
    },
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Disk speed where the product stores its files.

async function diskSpeed(dir) {
  const file = join(dir, `disk-bench-${randomBytes(4).toString('hex')}.bin`);
  const block = randomBytes(8 * MiB);
  const fh = await open(file, 'w');
  try {
    const started = performance.now();
    for (let written = 0; written < DISK_SIZE; written += block.length) await fh.write(block, 0, Math.min(block.length, DISK_SIZE - written));
    await fh.sync();
    const seconds = (performance.now() - started) / 1000;
    return mb(DISK_SIZE) / seconds;
  } finally {
    await fh.close();
    await rm(file, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The source: an MP4 header, then AES-CTR keystream (fast pseudo-random bytes), SHA-256 as sent.

function mp4Header() {
  const head = Buffer.alloc(32);
  head.writeUInt32BE(32, 0);
  head.write('ftypisom', 4, 'latin1');
  head.writeUInt32BE(0x200, 12);
  head.write('isomiso2avc1mp41', 16, 'latin1');
  return head;
}

function randomSource(size, seed = 1) {
  const key = createHash('sha256').update(`upload-bench-${seed}`).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(4 * MiB);
  const hash = createHash('sha256');
  let produced = 0;
  const stream = new Readable({
    highWaterMark: 8 * MiB,
    read() {
      if (produced >= size) return void this.push(null);
      const n = Math.min(zeros.length, size - produced);
      const block = cipher.update(zeros.subarray(0, n));
      if (produced === 0) mp4Header().copy(block);
      produced += n;
      hash.update(block);
      this.push(block);
    },
  });
  return { stream, digest: () => hash.digest('hex'), produced: () => produced };
}

async function sourceSpeed() {
  const size = 512 * MiB;
  const src = randomSource(size, 99);
  const started = performance.now();
  // Read it through, for the generator's own speed.
  await new Promise((resolve, reject) => src.stream.on('data', () => {}).on('end', resolve).on('error', reject));
  src.digest();
  return mb(size) / ((performance.now() - started) / 1000);
}

// ---------------------------------------------------------------------------------------------
// Processes.

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
let logText = '';
const logLine = (prefix) => (d) => {
  logText += d
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => `${prefix}${l}\n`)
    .join('');
  if (logText.length > 4_000_000) logText = logText.slice(-2_000_000);
};

function spawnNode(args, childEnv, prefix) {
  if (stopping()) throw new Error(`not starting ${args[0]}: the bench is stopping`);
  const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', logLine(prefix));
  child.stderr.on('data', logLine(prefix));
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));

async function stopChild(child, signal = 'SIGTERM', graceMs = 30_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await Promise.race([exited(child), sleep(graceMs)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited(child);
  }
}

/** A gateway's port → its internal port, where it answers /health/ready (never on its public port). */
const readyPortOf = new Map();

async function waitReady(port, timeoutMs = 90_000, child) {
  port = readyPortOf.get(port) ?? port;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`process exited before ready:\n${logText.slice(-4000)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`:${port} not ready after ${timeoutMs / 1000}s:\n${logText.slice(-4000)}`);
    await sleep(50);
  }
}

/** The children of `ppid` running `entry` (run-services spawns `node <entry>`). */
async function childPid(ppid, entry) {
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent !== ppid) continue;
    const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (cmdline.includes(entry)) return Number(name);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// API.

async function api(base, method, path, { token, body } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function signUpAndTimeline(base) {
  const handle = `bench_${randomBytes(4).toString('hex')}`;
  const reg = await api(base, 'POST', '/api/auth/register', {
    body: { displayName: 'Upload Bench', username: handle, email: `${handle}@example.com`, password: 'correct-horse-battery' },
  });
  const token = reg.session.token;
  const timeline = await api(base, 'POST', '/api/timelines', { token, body: { title: 'Upload bench' } });
  return { token, timelineId: timeline.id };
}

function tusOptions(base, auth, chunkSize, size, extra = {}) {
  return {
    endpoint: `${base}/api/uploads`,
    uploadSize: size,
    chunkSize,
    headers: { authorization: `Bearer ${auth.token}` },
    metadata: { timelineId: auth.timelineId, filename: 'bench.mp4', filetype: 'video/mp4' },
    storeFingerprintForResuming: false,
    removeFingerprintOnSuccess: false,
    ...extra,
  };
}

const runUpload = (upload) =>
  new Promise((resolve, reject) => {
    upload.options.onSuccess = () => resolve();
    upload.options.onError = (e) => reject(e);
    upload.start();
  });

async function sessionOf(db, uploadUrl) {
  const id = uploadUrl.split('/').pop();
  const { rows } = await db.query('SELECT id, status, media_id, received_bytes FROM media.upload_sessions WHERE id = $1', [id]);
  return rows[0];
}

async function storedHash(dataDir, mediaId) {
  const { FsObjectStorage } = await import('@timeliner/platform');
  const storage = new FsObjectStorage({ root: join(dataDir, 'storage') });
  const hash = createHash('sha256');
  try {
    for await (const chunk of await storage.get(`media/${mediaId}/original`)) hash.update(chunk);
  } catch (error) {
    return `stored original unreadable: ${error.message}`;
  }
  return hash.digest('hex');
}

/** Waits until the worker has done with a media item (random bytes do not probe: it fails). */
async function waitProcessed(db, mediaId, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  const started = Date.now();
  for (;;) {
    const { rows } = await db.query('SELECT status FROM media.media WHERE id = $1', [mediaId]);
    const status = rows[0]?.status;
    if (status && status !== 'processing') return { status, seconds: (Date.now() - started) / 1000 };
    if (Date.now() > deadline) return { status: `${status} (still, after ${timeoutMs / 1000}s)`, seconds: NaN };
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------

const prefix = `ub${randomBytes(4).toString('hex')}`;
const dbName = `upload_bench_${prefix}`;
const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const dataParent = env.BENCH_DATA_PARENT || tmpdir();
let dataDir;
const admin = new pg.Client({ connectionString: ADMIN_URL });
let db;
let dbCreated = false;
const results = { throughput: [], resume: [] };

/** Processes, database, the prefix's NATS streams, the data dir (with UPLOAD_BENCH_KEEP=1, the data dir and the log are kept). */
async function removeAll() {
  for (const child of [...children]) await stopChild(child, 'SIGTERM', 15_000).catch(() => undefined);
  await db?.end().catch(() => undefined);
  if (dbCreated) {
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch((e) => console.error(`drop database: ${e.message}`));
  }
  await admin.end().catch(() => undefined);
  try {
    const { connect } = await import('@nats-io/transport-node');
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const nc = await connect({ servers: NATS_URL, name: `cleanup-${prefix}` });
    const jsm = await jetstreamManager(nc);
    const up = `${prefix.toUpperCase()}_`;
    const deleted = [];
    for await (const info of jsm.streams.list()) {
      if (info.config.name.startsWith(up)) {
        await jsm.streams.delete(info.config.name);
        deleted.push(info.config.name);
      }
    }
    await nc.close();
    console.log(`cleanup: NATS streams deleted: ${deleted.join(', ') || 'none'}`);
  } catch (e) {
    console.error(`cleanup: NATS streams: ${e.message}`);
  }
  if (dataDir && !KEEP) await rm(dataDir, { recursive: true, force: true });
  if (KEEP) {
    await writeFile(join(dataDir, 'bench.log'), logText).catch(() => undefined);
    console.log(`kept ${dataDir}`);
  }
}

// At the end, and on Ctrl-C or SIGTERM (lib/cleanup.mjs, which then also kills any process of
// run-services left behind).
onCleanup('the processes, database, NATS streams and data dir', removeAll);

async function throughputPhase(baseEnv) {
  const port = await freePort();
  readyPortOf.set(port, await freePort());
  const runner = spawnNode(['deploy/run-services.mjs', '--no-build'], { ...baseEnv, PORT: String(port), INTERNAL_PORT: String(readyPortOf.get(port)), HOST: '127.0.0.1' }, '');
  await waitReady(port, 120_000, runner);
  const base = `http://127.0.0.1:${port}`;
  const pids = { gateway: await childPid(runner.pid, join('gateway', 'dist', 'main.bundle.mjs')), media: await childPid(runner.pid, join('services', 'media', 'dist', 'main.bundle.mjs')) };
  if (!pids.gateway || !pids.media) throw new Error(`could not find the gateway/media pids under run-services ${runner.pid}: ${JSON.stringify(pids)}`);
  console.log(`run-services pid ${runner.pid}; gateway pid ${pids.gateway} (:${port}), media pid ${pids.media}`);
  const auth = await signUpAndTimeline(base);

  // Warm-up: a small upload, so "before" is a process that has served an upload once.
  {
    const src = randomSource(32 * MiB, 7);
    await runUpload(new tus.Upload(src.stream, tusOptions(base, auth, 16 * MiB, 32 * MiB)));
  }
  await sleep(1000);

  // The file, made before timing starts: a browser uploads a File, which tus-js-client slices;
  // a Buffer is what comes closest here (a stream would add the client's own buffering).
  const { source, sent } = await (async () => {
    const src = randomSource(SIZE, 1);
    const bytes = Buffer.concat(await src.stream.toArray());
    return { source: bytes, sent: src.digest() };
  })();

  const sampler = rssSampler(pids);
  try {
    for (const chunkSize of CHUNKS) {
      await sleep(500);
      await sampler.mark('before');
      sampler.resetMax();
      const upload = new tus.Upload(source, tusOptions(base, auth, chunkSize, SIZE, { retryDelays: [0, 500, 1000] }));
      const cpuPids = { client: process.pid, ...pids };
      const cpuBefore = await cpuOf(cpuPids);
      const started = performance.now();
      await runUpload(upload);
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = await cpuOf(cpuPids);
      const max = Object.fromEntries(Object.entries(sampler.stats).map(([n, s]) => [n, s.max]));
      await sleep(1000);
      await sampler.mark('after');
      const session = await sessionOf(db, upload.url);
      const stored = session?.media_id ? await storedHash(dataDir, session.media_id) : undefined;
      const processed = session?.media_id ? await waitProcessed(db, session.media_id) : { status: 'no media row', seconds: NaN };
      await sampler.mark('settled');
      const rss = Object.fromEntries(
        Object.entries(sampler.stats).map(([n, s]) => [n, { before: s.marks.before, max: max[n], after: s.marks.after, settled: s.marks.settled }]),
      );
      const row = {
        chunkMb: mb(chunkSize),
        seconds,
        mbps: mb(SIZE) / seconds,
        sessionStatus: session?.status,
        hashOk: stored === sent ? true : stored,
        workerAfterwards: processed,
        rss,
        cpu: Object.fromEntries(Object.keys(cpuBefore).map((n) => [n, cpuAfter[n] - cpuBefore[n]])),
      };
      results.throughput.push(row);
      console.log(
        `upload ${mb(SIZE)} MiB, chunk ${row.chunkMb} MiB: ${fmt(row.seconds, 2)} s, ${fmt(row.mbps)} MiB/s; session ${row.sessionStatus}; SHA-256 match ${row.hashOk}; ` +
          `worker then: ${processed.status} in ${fmt(processed.seconds)} s`,
      );
      for (const [n, r] of Object.entries(rss)) console.log(`  ${n.padEnd(7)} RSS MB before ${fmt(r.before)} max ${fmt(r.max)} after ${fmt(r.after)} (growth ${fmt(r.max - r.before)})`);
      const cores = cpus().length;
      console.log(
        `  CPU s during the upload (wall ${fmt(seconds, 2)} s × ${cores} cores = ${fmt(seconds * cores, 1)}): ` +
          Object.entries(row.cpu).map(([n, v]) => `${n} ${fmt(v, 2)}`).join(', '),
      );
    }
  } finally {
    sampler.stop();
  }

  // The ceiling of the path itself: the same client and the same gateway code, with a sink that
  // reads and discards the body in place of the media service, so nothing is stored.
  try {
    const sink = await tusSink();
    const gatewayPort = await freePort();
    readyPortOf.set(gatewayPort, await freePort());
    const app = discoverApps(ROOT, sharedEnv({ ...baseEnv, PORT: String(port) })).find((a) => a.kind === 'gateway');
    const gateway = spawnNode([app.entry], { ...baseEnv, ...app.env, MEDIA_SERVICE_URL: sink.url, PORT: String(gatewayPort), INTERNAL_PORT: String(readyPortOf.get(gatewayPort)), HOST: '127.0.0.1' }, 'gateway→sink | ');
    try {
      await waitReady(gatewayPort, 60_000, gateway);
      const upload = new tus.Upload(source, tusOptions(`http://127.0.0.1:${gatewayPort}`, auth, CHUNKS[0], SIZE, { retryDelays: [] }));
      const started = performance.now();
      await runUpload(upload);
      const seconds = (performance.now() - started) / 1000;
      results.ceiling = { mbps: mb(SIZE) / seconds };
      console.log(`ceiling: ${mb(SIZE)} MiB through the gateway to a sink that stores nothing, chunk ${mb(CHUNKS[0])} MiB: ${fmt(seconds, 2)} s, ${fmt(mb(SIZE) / seconds)} MiB/s (${mb(sink.received())} MiB received)`);
    } finally {
      await stopChild(gateway, 'SIGTERM', 30_000);
      await sink.close();
    }
  } finally {
    await stopChild(runner, 'SIGTERM', 40_000);
  }
}

/**
 * The least a tus server can do: creation, offsets, and PATCH bodies read to the end and dropped.
 * Answers what the gateway forwards to the media service, for the ceiling measurement.
 */
async function tusSink() {
  const offsets = new Map();
  let received = 0;
  const server = createHttpServer((req, res) => {
    const tus = { 'tus-resumable': '1.0.0' };
    if (req.url.startsWith('/health/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    if (req.method === 'POST') {
      const id = randomBytes(8).toString('hex');
      offsets.set(id, 0);
      res.writeHead(201, { ...tus, location: `/api/uploads/${id}` }).end();
      return;
    }
    const id = req.url.split('/').pop();
    if (!offsets.has(id)) return void res.writeHead(404, tus).end();
    if (req.method === 'HEAD') return void res.writeHead(200, { ...tus, 'upload-offset': String(offsets.get(id)), 'cache-control': 'no-store' }).end();
    let n = 0;
    req.on('data', (chunk) => (n += chunk.length));
    req.on('end', () => {
      offsets.set(id, offsets.get(id) + n);
      received += n;
      res.writeHead(204, { ...tus, 'upload-offset': String(offsets.get(id)) }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** How long the balancer skips a backend that refused a connection (k8s: until the endpoint is ready again). */
const EJECT_MS = 10_000;

/**
 * A TCP balancer in front of `backends` (ports), as a Kubernetes Service behaves: each new
 * connection goes to the next backend in turn; a connection to a backend that is gone is reset,
 * not retried elsewhere, and that backend is skipped from then on for EJECT_MS (Kubernetes takes
 * a killed pod's endpoint out once the kubelet sees the container exit). Counts the bytes each
 * backend receives, so the replica carrying the upload can be found.
 */
async function balancer(backends) {
  let next = 0;
  const received = new Map(backends.map((p) => [p, 0]));
  /** Backends whose last connection was refused, until when they are skipped. */
  const downUntil = new Map();
  const pick = () => {
    for (let i = 0; i < backends.length; i++) {
      const port = backends[next++ % backends.length];
      if ((downUntil.get(port) ?? 0) <= Date.now()) return port;
    }
    return backends[next++ % backends.length];
  };
  const server = createServer((client) => {
    const port = pick();
    const upstream = connect({ port, host: '127.0.0.1' });
    upstream.on('error', (err) => {
      if (err.code === 'ECONNREFUSED') downUntil.set(port, Date.now() + EJECT_MS);
      client.destroy();
    });
    client.on('error', () => upstream.destroy());
    client.on('data', (chunk) => received.set(port, received.get(port) + chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    /** The backend that received the most bytes since the last call. */
    busiest() {
      const counts = [...received];
      for (const p of backends) received.set(p, 0);
      return counts.sort((a, b) => b[1] - a[1])[0][0];
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * The same processes run-services starts (discoverApps, sharedEnv), but started one by one here on
 * free ports, so one of them can be killed and restarted alone. With `replicas` > 1 the media
 * service and the gateway run that many times, each pair behind a balancer, as k8s/base runs them
 * (media: 2 replicas, gateway: at least 2); the other services run once. The media replicas share
 * DATA_DIR: only one of them writes to an upload at a time (the other is killed).
 */
async function startTopology(baseEnv, replicas = 1) {
  const scaled = new Set(replicas > 1 ? ['media', 'gateway'] : []);
  const shared = sharedEnv({ ...baseEnv, PORT: '0' });
  const apps = discoverApps(ROOT, shared);
  const ports = new Map();
  for (const app of apps) {
    const list = [];
    for (let i = 0; i < (scaled.has(app.name) ? replicas : 1); i++) list.push(await freePort());
    ports.set(app.name, list);
  }
  const balancers = new Map();
  for (const name of scaled) balancers.set(name, await balancer(ports.get(name)));
  const addressOf = (name) => (balancers.get(name)?.port ?? ports.get(name)[0]);
  const gw = apps.find((a) => a.kind === 'gateway');
  for (const port of ports.get(gw.name)) readyPortOf.set(port, await freePort());
  for (const app of apps.filter((a) => a.kind === 'service')) {
    gw.env[`${app.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_SERVICE_URL`] = `http://127.0.0.1:${addressOf(app.name)}`;
  }
  const gatewayAddress = `http://127.0.0.1:${addressOf('gateway')}`;
  /** name → the running instances, by port. */
  const procs = new Map(apps.map((a) => [a.name, new Map()]));
  const start = (app, port) => {
    // Links and the WebSocket origin check name the address the client uses.
    const internal = app.kind === 'gateway' ? { INTERNAL_PORT: String(readyPortOf.get(port)) } : {};
    const child = spawnNode([app.entry], { ...shared, PUBLIC_ORIGIN: gatewayAddress, ...app.env, ...internal, PORT: String(port), HOST: '127.0.0.1' }, `${app.name}:${port} | `);
    procs.get(app.name).set(port, child);
    return child;
  };
  const startAll = async (list) => {
    for (const app of list) for (const port of ports.get(app.name)) start(app, port);
    await Promise.all(list.flatMap((app) => ports.get(app.name).map((port) => waitReady(port, 120_000, procs.get(app.name).get(port)))));
  };
  await startAll(apps.filter((a) => a.kind !== 'gateway'));
  await startAll([gw]);
  return {
    base: gatewayAddress,
    /** The port of the instance of `name` carrying the upload (the only one without replicas). */
    busiest: (name) => balancers.get(name)?.busiest() ?? ports.get(name)[0],
    child: (name, port) => procs.get(name).get(port),
    restart: (name, port) => start(apps.find((a) => a.name === name), port),
    async stop() {
      for (const child of procs.get('gateway').values()) await stopChild(child, 'SIGTERM', 30_000);
      await Promise.all([...procs.values()].flatMap((m) => [...m.values()]).map((c) => stopChild(c, 'SIGTERM', 30_000)));
      for (const b of balancers.values()) await b.close();
    },
  };
}

/**
 * The web app's tus chunk size and retry schedule, read from its source, so the bench uploads as a
 * phone does: the file under frontend/src that exports RETRY_DELAYS (today
 * features/media/lib/tus-transport.ts), found wherever the web app keeps it.
 */
async function appTusSettings() {
  const files = (await readdir(join(ROOT, 'frontend/src'), { recursive: true })).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  let file;
  let source;
  for (const candidate of files) {
    const text = await readFile(join(ROOT, 'frontend/src', candidate), 'utf8');
    if (text.includes('export const RETRY_DELAYS')) {
      file = join('frontend/src', candidate);
      source = text;
      break;
    }
  }
  if (!source) throw new Error('no file under frontend/src exports RETRY_DELAYS');
  const delays = /export const RETRY_DELAYS = (\[[\d,\s]*\]);/.exec(source);
  const chunk = /export const CHUNK_SIZE = (\d+) \* 1024 \* 1024;/.exec(source);
  if (!delays || !chunk) throw new Error(`RETRY_DELAYS or CHUNK_SIZE (n * 1024 * 1024) not found in ${file}`);
  return { retryDelays: JSON.parse(delays[1]), chunkSize: Number(chunk[1]) * MiB };
}

/**
 * kill -9 of the media service and of the gateway while an upload runs, in two deployments:
 * one instance each, restarted at once (Docker's `restart: unless-stopped`, a kubelet restart),
 * and two replicas of each behind one address (k8s/base), where the victim stays down. The client
 * is tus-js-client with the web app's chunk size and retry schedule; the figure is the time from
 * the kill to the first chunk sent after it being stored and acknowledged.
 */
async function resumePhase(baseEnv, replicas) {
  const topo = await startTopology(baseEnv, replicas);
  const { retryDelays, chunkSize } = await appTusSettings();
  const deployment = replicas > 1 ? `${replicas} replicas, victim left down` : 'one instance, restarted at once';
  try {
    const auth = await signUpAndTimeline(topo.base);
    for (const victim of (env.UPLOAD_BENCH_VICTIMS || 'media,gateway').split(',')) {
      // The gateway answers a HEAD with 423 while the media service is unreachable, which
      // tus-js-client retries on the same schedule; then it PATCHes from the stored offset.
      const bytes = Buffer.concat(await randomSource(RESUME_SIZE, victim.length).stream.toArray());
      const accepted = [];
      let lastPatchSent = 0;
      const answers = [];
      let creations = 0;
      const upload = new tus.Upload(
        bytes,
        tusOptions(topo.base, auth, chunkSize, RESUME_SIZE, {
          retryDelays,
          // tus-js-client sends one request at a time: the chunk completed is the last PATCH sent.
          onChunkComplete: () => accepted.push({ sent: lastPatchSent, at: performance.now() }),
          onBeforeRequest: (req) => {
            if (req.getMethod() === 'PATCH') lastPatchSent = performance.now();
            else if (process.env.BENCH_TRACE) console.log(`${((performance.now() - t0) / 1000).toFixed(2)} → ${req.getMethod()}`);
          },
          onAfterResponse: (req, res) => {
            if (req.getMethod() === 'POST' && res.getStatus() === 201) creations += 1;
            if (res.getStatus() >= 300) answers.push(`${req.getMethod()} ${res.getStatus()}`);
            if (process.env.BENCH_TRACE) console.log(`${((performance.now() - t0) / 1000).toFixed(2)} ${req.getMethod()} ${res.getStatus()} ${res.getHeader("upload-offset") ?? ""}`);
          },
        }),
      );
      const done = runUpload(upload);
      let uploadError;
      done.catch((e) => (uploadError = e));
      const offset = async () => (upload.url ? Number((await sessionOf(db, upload.url))?.received_bytes ?? 0) : 0);
      const deadline = Date.now() + 300_000;
      topo.busiest(victim);
      while ((await offset()) < RESUME_SIZE * 0.4) {
        if (uploadError) throw uploadError;
        if (Date.now() > deadline) throw new Error('upload did not reach 40%');
        await sleep(10);
      }
      const port = topo.busiest(victim);
      const child = topo.child(victim, port);
      const killed = performance.now();
      child.kill('SIGKILL');
      await exited(child);
      let readyAfter = NaN;
      if (replicas === 1) {
        const fresh = topo.restart(victim, port);
        void waitReady(port, 60_000, fresh).then(() => (readyAfter = (performance.now() - killed) / 1000), () => undefined);
      }
      const atKill = await offset();
      // Resumed: a chunk sent after the kill was stored and acknowledged (with replicas, a chunk
      // already in flight to the other one at the kill does not count).
      let progressAfter = NaN;
      while (performance.now() - killed < 60_000 && !uploadError) {
        const first = accepted.find((c) => c.sent > killed);
        if (first) {
          progressAfter = (first.at - killed) / 1000;
          break;
        }
        await sleep(10);
      }
      await done.catch(() => undefined);
      if (replicas > 1) {
        const fresh = topo.restart(victim, port);
        await waitReady(port, 60_000, fresh);
      }
      const session = upload.url ? await sessionOf(db, upload.url) : undefined;
      const stored = session?.media_id ? await storedHash(dataDir, session.media_id) : undefined;
      const row = {
        deployment,
        victim,
        sizeMb: mb(RESUME_SIZE),
        offsetAtKillMb: mb(atKill),
        readyAfter,
        progressAfter,
        completed: session?.status,
        creations,
        hashOk: stored === createHash('sha256').update(bytes).digest('hex') ? true : stored,
        error: uploadError?.message?.split('\n')[0],
        answers: Object.entries(answers.reduce((acc, a) => ({ ...acc, [a]: (acc[a] ?? 0) + 1 }), {})).map(([a, n]) => `${a} ×${n}`).join(', '),
      };
      results.resume.push(row);
      console.log(
        `resume (${deployment}) after kill -9 ${victim} at ${fmt(row.offsetAtKillMb)} MiB of ${row.sizeMb}: kill→restarted ready ${fmt(readyAfter, 2)} s, ` +
          `kill→first chunk sent after it stored ${fmt(progressAfter, 2)} s; session ${row.completed} (uploads created: ${creations}); SHA-256 match ${row.hashOk}; ` +
          `non-2xx answers: ${row.answers || 'none'}${row.error ? `; error ${row.error}` : ''}`,
      );
      if (session?.media_id) await waitProcessed(db, session.media_id);
    }
  } finally {
    await topo.stop();
  }
}

try {
  await admin.connect();
  dataDir = await mkdtemp(join(dataParent, 'bench-upload-'));
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}); DATA_DIR ${dataDir}; BUS_PREFIX ${prefix}; database ${dbName}`);

  // This machine's disk varies a lot from one minute to the next (a virtual disk): measure it
  // three times before and three times after the uploads, and compare with the median.
  const diskRuns = [];
  const measureDisk = async (when) => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await diskSpeed(dataDir));
    diskRuns.push(...runs);
    console.log(`disk ${when}: ${mb(DISK_SIZE)} MiB in 8 MiB blocks + fsync → ${runs.map((r) => fmt(r)).join(', ')} MiB/s`);
  };
  await measureDisk('before');
  const gen = await sourceSpeed();
  console.log(`client source (AES-CTR bytes + SHA-256), alone: ${fmt(gen)} MiB/s`);

  await admin.query(`CREATE DATABASE "${dbName}"`);
  dbCreated = true;
  db = new pg.Client({ connectionString: dbUrl });
  await db.connect();

  const baseEnv = {
    ...process.env,
    NODE_OPTIONS: env.BENCH_CHILD_NODE_OPTIONS || '',
    DATABASE_URL: dbUrl,
    NATS_URL,
    DATA_DIR: dataDir,
    BUS_PREFIX: prefix,
    LOG_LEVEL: env.LOG_LEVEL || 'warn',
  };
  delete baseEnv.INTERNAL_SECRET;
  delete baseEnv.PORT;

  if (PHASES.has('throughput')) await throughputPhase({ ...baseEnv, INTERNAL_SECRET: randomBytes(32).toString('base64url') });
  await measureDisk('after');
  const sorted = [...diskRuns].sort((a, b) => a - b);
  const disk = (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
  console.log(`disk: median ${fmt(disk)} MiB/s (range ${fmt(sorted[0])}–${fmt(sorted.at(-1))})`);
  if (PHASES.has('resume')) for (const replicas of (env.UPLOAD_BENCH_REPLICAS || '1,2').split(',').map(Number)) await resumePhase({ ...baseEnv, INTERNAL_SECRET: randomBytes(32).toString('base64url') }, replicas);

  console.log('\n| upload | chunk | MiB/s | × disk | gateway RSS before/max/after (growth) MB | media RSS before/max/after (growth) MB | bars |');
  console.log('|---|---|---|---|---|---|---|');
  let failed = false;
  for (const r of results.throughput) {
    const ratio = r.mbps / disk;
    const g = r.rss.gateway;
    const m = r.rss.media;
    const growthOk = g.max - g.before < BARS.rssGrowthMb && m.max - m.before < BARS.rssGrowthMb;
    const ratioOk = ratio >= BARS.diskRatio;
    failed ||= !growthOk || !ratioOk || r.hashOk !== true;
    const ofCeiling = results.ceiling ? ` (${fmt((100 * r.mbps) / results.ceiling.mbps, 0)}% of the path's ceiling)` : '';
    console.log(
      `| ${mb(SIZE)} MiB | ${r.chunkMb} MiB | ${fmt(r.mbps)}${ofCeiling} | ${fmt(ratio, 2)} | ${fmt(g.before)}/${fmt(g.max)}/${fmt(g.after)} (${fmt(g.max - g.before)}) | ` +
        `${fmt(m.before)}/${fmt(m.max)}/${fmt(m.after)} (${fmt(m.max - m.before)}) | ${ratioOk ? 'PASS' : 'FAIL'} ≥ ${BARS.diskRatio * 100}% of ${fmt(disk)} MiB/s; ` +
        `${growthOk ? 'PASS' : 'FAIL'} RSS growth < ${BARS.rssGrowthMb} MB |`,
    );
  }
  if (results.ceiling) {
    console.log(
      `\nceiling of the path (gateway → a sink storing nothing): ${fmt(results.ceiling.mbps)} MiB/s = ${fmt(results.ceiling.mbps / disk, 2)} × the disk: ` +
        `${results.ceiling.mbps / disk < BARS.diskRatio ? `below ${BARS.diskRatio * 100}%, so the disk bar cannot be met through this gateway on this machine` : 'the disk bar is within reach'}`,
    );
  }
  console.log('\n| deployment | killed | size | offset at kill | kill→restarted ready (s) | kill→progress (s) | bar |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results.resume) {
    const ok = r.progressAfter <= BARS.resumeSeconds && r.completed === 'completed' && r.creations === 1 && r.hashOk === true;
    failed ||= !ok;
    console.log(
      `| ${r.deployment} | ${r.victim} | ${r.sizeMb} MiB | ${fmt(r.offsetAtKillMb)} MiB | ${fmt(r.readyAfter, 2)} | ${fmt(r.progressAfter, 2)} | ` +
        `${ok ? 'PASS' : 'FAIL'} ≤ ${BARS.resumeSeconds} s, one upload, completed, same SHA-256 |`,
    );
  }
  process.exitCode = failed ? 1 : 0;
} catch (error) {
  if (!interrupted()) {
    console.error(error);
    console.error(logText.slice(-3000));
    process.exitCode = 2;
  }
} finally {
  await cleanup();
}
