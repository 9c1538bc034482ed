#!/usr/bin/env node
// "Download your data" benchmark (DESIGN.md section 8, "accounts"): one person's archive with
// EXPORT_BENCH_MB of original files, built by the real media worker in a process of its own
// (services/media/dist/worker.js), its RSS sampled from /proc throughout.
//
//   npx tsc -b tsconfig.json   (the services must be built)
//   node bench/export.mjs
//
// Steps:
//   1. a scratch database (CREATE DATABASE on ADMIN_DATABASE_URL), a temp DATA_DIR, a unique
//      BUS_PREFIX on NATS; auth, timelines, social, notifications and the media API started in this
//      process (built code), the worker as its own process on the same database, bus and storage;
//   2. a person registers through the API, makes a timeline, a post, a like and a follow; their
//      originals (EXPORT_BENCH_FILES files, EXPORT_BENCH_MB in all, pseudo-random bytes) are
//      streamed into storage and recorded as completed media of the timeline;
//   3. POST /api/account/data-exports, then GET every 250 ms until it is completed; the time from
//      the POST to completed, the worker's VmRSS every 100 ms and its VmHWM (peak) at the end;
//   4. the ZIP's listing (`unzip -l`) is checked: every original is in it at its full size;
//   5. everything is removed (lib/cleanup.mjs), also on Ctrl-C.
//
// Env: ADMIN_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), NATS_URL
// (nats://127.0.0.1:4222), BENCH_DATA_PARENT (os.tmpdir()), EXPORT_BENCH_MB (1024),
// EXPORT_BENCH_FILES (10), EXPORT_BENCH_KEEP=1 keeps the data dir and database.
// Bars: ≤ 60 s for 1 GB of originals; the worker's peak RSS < 200 MB.
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { cleanup, onCleanup, removeDir, removeStreams, scratchDatabase, stopChild } from './lib/cleanup.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
const env = process.env;
const TOTAL = Math.round(Number(env.EXPORT_BENCH_MB || 1024) * MiB);
const FILES = Math.max(1, Number(env.EXPORT_BENCH_FILES || 10));
const ADMIN_URL = env.ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = env.NATS_URL || 'nats://127.0.0.1:4222';
const KEEP = env.EXPORT_BENCH_KEEP === '1';
const BARS = { seconds: 60 * (TOTAL / (1024 * MiB)), rssMb: 200 };
const exec = promisify(execFile);
const load = (p) => import(pathToFileURL(join(ROOT, p)).href);

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** VmRSS and VmHWM (peak) of a process, in MB, from /proc. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** `size` pseudo-random bytes, made a MiB at a time (never held whole). */
function randomStream(size) {
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const chunk = randomBytes(Math.min(MiB, left));
      left -= chunk.length;
      this.push(chunk);
    },
  });
}

async function main() {
  const platform = await load('services/platform/dist/index.js');
  const { startAuthService } = await load('services/auth/dist/index.js');
  const { startTimelinesService } = await load('services/timelines/dist/index.js');
  const { startSocialService } = await load('services/social/dist/index.js');
  const { startNotificationsService } = await load('services/notifications/dist/index.js');
  const { startMediaService } = await load('services/media/dist/index.js');

  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`originals: ${FILES} files, ${(TOTAL / MiB).toFixed(0)} MB in all`);

  const tag = randomBytes(4).toString('hex');
  const dataDir = await mkdtemp(join(env.BENCH_DATA_PARENT || tmpdir(), 'bench-export-'));
  removeDir(dataDir, { keep: KEEP });
  const databaseUrl = await scratchDatabase(ADMIN_URL, `bench_export_${tag}`, { keep: KEEP });
  const prefix = `bx${tag}`;
  removeStreams(NATS_URL, prefix);
  const secret = randomBytes(32).toString('hex');
  const logger = platform.createLogger('bench-export', 'warn');
  const bus = await platform.createEventBus({ natsUrl: NATS_URL, prefix, logger });
  onCleanup('bus', () => bus.close());
  const queue = await platform.createWorkQueue({ natsUrl: NATS_URL, prefix, logger });
  onCleanup('work queue', () => queue.close());
  const storage = await platform.createObjectStorage({ DATA_DIR: dataDir });
  const common = { databaseUrl, bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
  const mail = platform.createMailSender({ dataDir });
  onCleanup('mail', () => mail.close());
  const services = {};
  for (const [name, start, options] of [
    ['auth', startAuthService, { mail }],
    ['timelines', startTimelinesService, { mail }],
    ['social', startSocialService, {}],
    ['notifications', startNotificationsService, { workQueue: queue, vapid: { publicKey: 'bench', privateKey: 'bench', subject: 'mailto:bench@example.com' } }],
    ['media', startMediaService, { storage, workQueue: queue, sweepIntervalMs: 0 }],
  ]) {
    const running = await start({ ...common, ...options });
    onCleanup(`${name} service`, () => running.close());
    services[name] = running;
  }

  const call = async (name, method, path, userId, body) => {
    const requestId = `bench-${randomBytes(6).toString('hex')}`;
    const headers = platform.signIdentity(secret, { userId, sessionId: userId ? randomUUID() : undefined, clientIp: '198.51.100.90' }, { requestId, method, url: path });
    const response = await fetch(`${services[name].url}${path}`, {
      method,
      headers: { ...headers, 'x-request-id': requestId, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const must = (answer, what) => {
    if (answer.status >= 300) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  // The worker, as deployed: its own process on the same database, bus and storage.
  const workerPort = await freePort();
  const worker = spawn(process.execPath, [join(ROOT, 'services/media/dist/worker.js')], {
    cwd: ROOT,
    env: {
      ...env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, NATS_URL, BUS_PREFIX: prefix, INTERNAL_SECRET: secret, DATA_DIR: dataDir,
      PORT: String(workerPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', MEDIA_WORKER_CONCURRENCY: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  onCleanup('worker', () => stopChild(worker), { first: true });

  const handle = `bench_${tag}`;
  const person = must(await call('auth', 'POST', '/api/auth/register', undefined, { username: handle, email: `${handle}@example.com`, password: `Pw-${randomBytes(12).toString('hex')}`, displayName: 'Bench Person' }), 'register').user.id;
  const friend = must(await call('auth', 'POST', '/api/auth/register', undefined, { username: `f${handle}`, email: `f${handle}@example.com`, password: `Pw-${randomBytes(12).toString('hex')}`, displayName: 'Friend' }), 'register').user.id;
  // Timelines and social know people from auth's events: the first calls may come before them.
  const eventually = async (attempt, what) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await attempt();
      if (answer.status < 300 || Date.now() > deadline) return must(answer, what);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const timeline = (await eventually(() => call('timelines', 'POST', '/api/timelines', person, { title: 'Bench timeline', visibility: 'public' }), 'timeline')).id;
  const post = (await eventually(() => call('social', 'POST', '/api/posts', friend, { content: 'A post to like' }), 'post')).id;
  must(await call('social', 'POST', '/api/posts', person, { content: 'My own post' }), 'post');
  must(await call('social', 'POST', `/api/posts/${post}/like`, person), 'like');
  await eventually(() => call('social', 'POST', `/api/users/${friend}/follow`, person), 'follow');

  // The originals: streamed into storage, recorded as completed media of the timeline.
  const made = performance.now();
  const originals = [];
  for (let i = 0; i < FILES; i++) {
    const size = Math.floor(TOTAL / FILES) + (i === FILES - 1 ? TOTAL % FILES : 0);
    const id = randomUUID();
    await storage.put(`media/${id}/original`, randomStream(size), { size, contentType: 'video/mp4' });
    await services.media.dataSource.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $5, 'video', 10, $6, 'video/mp4', 'completed', $7, now())`,
      [id, timeline, person, `media/${id}/original`, `clip-${i}.mp4`, size, i],
    );
    originals.push({ id, size });
  }
  console.log(`originals stored in ${((performance.now() - made) / 1000).toFixed(1)} s`);

  // The worker is ready (taking jobs) before the clock starts: its start-up is not the export's time.
  for (const deadline = Date.now() + 120_000; ; ) {
    if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${workerPort}/health/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the worker did not become ready');
    await new Promise((r) => setTimeout(r, 250));
  }

  // The export, timed from the request to completed, with the worker's memory sampled.
  const samples = [];
  const sampler = setInterval(() => {
    try {
      samples.push(memoryOf(worker.pid).rss);
    } catch {
      // The worker is gone: its exit is reported below.
    }
  }, 100);
  const before = memoryOf(worker.pid);
  const loadBefore = loadavg()[0];
  const started = performance.now();
  const queued = must(await call('media', 'POST', '/api/account/data-exports', person), 'start');
  let state;
  const phases = [];
  for (;;) {
    if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}`);
    state = must(await call('media', 'GET', '/api/account/data-exports', person), 'state').export;
    if (phases.at(-1)?.phase !== state.phase) phases.push({ phase: state.phase, at: (performance.now() - started) / 1000 });
    if (state.status === 'completed' || state.status === 'error') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = memoryOf(worker.pid);
  if (state.status !== 'completed') throw new Error(`the export failed: ${state.error}`);

  // The ZIP holds every original at its full size.
  const [row] = await services.media.dataSource.query('SELECT object_key FROM data_exports WHERE id = $1', [queued.id]);
  const meta = JSON.parse(readFileSync(join(dataDir, 'storage', 'objects', `${row.object_key}~meta`), 'utf8'));
  const zipFile = join(dataDir, 'storage', 'objects', `${row.object_key}~${meta.version}`);
  const { stdout: listing } = await exec('unzip', ['-l', zipFile], { maxBuffer: 64 * MiB });
  for (const { id, size } of originals) {
    const line = listing.split('\n').find((l) => l.includes(`${id}-clip-`));
    if (!line || Number(line.trim().split(/\s+/)[0]) !== size) throw new Error(`original ${id} is missing from the ZIP or has the wrong size`);
  }
  const hash = createHash('sha256').update(listing).digest('hex').slice(0, 12);

  const peakSampled = Math.max(...samples);
  console.log('');
  console.log(`export of ${(TOTAL / MiB).toFixed(0)} MB of originals (${FILES} files): ${seconds.toFixed(1)} s, ${((state.sizeBytes / MiB) / seconds).toFixed(0)} MB/s, ZIP ${(state.sizeBytes / MiB).toFixed(1)} MB (listing ${hash})`);
  console.log(`phases: ${phases.map((p) => `${p.phase} at ${p.at.toFixed(1)} s`).join(', ')}`);
  console.log(`worker RSS: ${before.rss.toFixed(0)} MB before, ${after.rss.toFixed(0)} MB after, sampled peak ${peakSampled.toFixed(0)} MB, VmHWM (peak since start) ${after.peak.toFixed(0)} MB`);
  console.log(`load average (1 min): ${loadBefore.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`);
  const scaledBar = BARS.seconds;
  console.log(`bars: ≤ ${scaledBar.toFixed(0)} s for this size (60 s per GB): ${seconds <= scaledBar ? 'met' : 'NOT met'}; peak RSS < ${BARS.rssMb} MB: ${after.peak < BARS.rssMb ? 'met' : 'NOT met'}`);
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
