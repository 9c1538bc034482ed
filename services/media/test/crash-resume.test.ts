import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as tus from 'tus-js-client';
import { createEventBus, createLogger, type EventBus, FsObjectStorage, signIdentity, type Subscription } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { mp4Header, newWorld, serveWorld, type World } from './harness.js';

/**
 * A crash mid-upload loses at most the part in flight: the media service runs in a child process,
 * takes part of a large upload through tus-js-client, is killed with SIGKILL, and a new process on
 * the same database and storage continues the upload from the offset it reports; the stored file
 * is byte-identical to the source. Size: MEDIA_CRASH_TEST_MB (default 300).
 */
const MiB = 1024 * 1024;
const SIZE = Number(process.env.MEDIA_CRASH_TEST_MB ?? 300) * MiB;
const CHUNK = 45 * MiB; // not a multiple of the 8 MiB part: tails are involved too
const script = fileURLToPath(new URL('./support/media-process.mjs', import.meta.url));

interface Child {
  process: ChildProcess;
  url: string;
  peakRssMb: number;
  stopWatching(): void;
}

const rssMb = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : 0;
};

describe('upload survives kill -9 of the media service', () => {
  let db: TestDatabase;
  let bus: EventBus;
  let responder: Subscription;
  let world: World;
  let dir: string;
  let source: string;
  let sourceHash: string;
  const prefix = testBusPrefix('mediacrash');
  const secret = randomBytes(32).toString('hex');
  const children: ChildProcess[] = [];

  const startChild = async (storageDir: string): Promise<Child> => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, MEDIA_PROCESS_CONFIG: JSON.stringify({ databaseUrl: db.url, natsUrl: testNatsUrl(), prefix, secret, storageDir }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`media process exited with ${code}`)));
    });
    const result: Child = { process: child, url: (JSON.parse(line) as { url: string }).url, peakRssMb: 0, stopWatching: () => undefined };
    const timer = setInterval(() => void rssMb(child.pid!).then((mb) => { result.peakRssMb = Math.max(result.peakRssMb, mb); }), 100);
    result.stopWatching = () => clearInterval(timer);
    return result;
  };

  const options = (endpoint: string, userId: string, extra: Partial<tus.UploadOptions>): tus.UploadOptions => ({
    endpoint: `${endpoint}/api/uploads`,
    chunkSize: CHUNK,
    metadata: { timelineId: world.privateTimeline, filename: 'long take.mp4', filetype: 'video/mp4' },
    onBeforeRequest(req) {
      const url = new URL(req.getURL());
      const requestId = `test-${randomBytes(6).toString('hex')}`;
      const headers = signIdentity(secret, { userId, sessionId: randomUUID(), clientIp: '198.51.100.1' }, { requestId, method: req.getMethod(), url: url.pathname });
      for (const [k, v] of Object.entries({ ...headers, 'x-request-id': requestId })) req.setHeader(k, v);
    },
    ...extra,
  });

  beforeAll(async () => {
    db = await createTestDatabase('mediacrash');
    bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger: createLogger('media-crash', 'silent') });
    world = newWorld();
    responder = await serveWorld(bus, world);
    dir = await mkdtemp(join(tmpdir(), 'media-crash-'));
    // The source: an MP4 header, then seeded pseudo-random bytes, hashed as they are written.
    source = join(dir, 'source.mp4');
    const hash = createHash('sha256');
    const out = createWriteStream(source);
    let x = 0x9e3779b9;
    const block = Buffer.alloc(MiB);
    for (let written = 0; written < SIZE; written += block.length) {
      for (let i = 0; i < block.length; i += 4) {
        x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
        block.writeUInt32LE(x, i);
      }
      if (written === 0) mp4Header().copy(block);
      const piece = block.subarray(0, Math.min(block.length, SIZE - written));
      hash.update(piece);
      if (!out.write(Buffer.from(piece))) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    sourceHash = hash.digest('hex');
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await responder.unsubscribe();
    await bus.close();
    await db.drop();
    await deleteBusStreams(testNatsUrl(), prefix);
    await rm(dir, { recursive: true, force: true });
  });

  it(`kill -9 part-way through a ${SIZE / MiB} MB upload, resume in a new process, same SHA-256`, async () => {
    const started = Date.now();
    const storageDir = join(dir, 'storage');
    const sessions = new pg.Client({ connectionString: db.url });
    await sessions.connect();
    const offsetInDb = async () => {
      const { rows } = await sessions.query<{ received_bytes: string }>('SELECT received_bytes FROM media.upload_sessions LIMIT 1');
      return Number(rows[0]?.received_bytes ?? 0);
    };

    // 1. Upload until about 40% is stored, then kill the service with SIGKILL.
    const first = await startChild(storageDir);
    const upload = new tus.Upload(createReadStream(source), options(first.url, world.editor, { retryDelays: [] }));
    const failed = new Promise<void>((resolve) => {
      upload.options.onError = () => resolve();
      upload.options.onSuccess = () => resolve();
    });
    upload.start();
    while ((await offsetInDb()) < SIZE * 0.4) await new Promise((r) => setTimeout(r, 20));
    first.process.kill('SIGKILL');
    await failed;
    first.stopWatching();
    const atKill = await offsetInDb();
    expect(atKill).toBeLessThan(SIZE);

    // 2. A new process on the same database and storage: the upload continues from its offset.
    const second = await startChild(storageDir);
    const sessionId = upload.url!.split('/').pop()!;
    let resumedFrom = -1;
    const resumed = new tus.Upload(createReadStream(source), options(second.url, world.editor, {
      uploadUrl: `${second.url}/api/uploads/${sessionId}`,
      retryDelays: [0, 200, 500],
      onProgress: (sent) => { if (resumedFrom < 0) resumedFrom = sent; },
    }));
    await new Promise<void>((resolve, reject) => {
      resumed.options.onSuccess = () => resolve();
      resumed.options.onError = reject;
      resumed.start();
    });
    second.stopWatching();

    const { rows } = await sessions.query<{ media_id: string; status: string }>('SELECT media_id, status FROM media.upload_sessions WHERE id = $1', [sessionId]);
    expect(rows[0]!.status).toBe('completed');
    const storage = new FsObjectStorage({ root: storageDir });
    const stored = createHash('sha256');
    for await (const chunk of (await storage.get(`media/${rows[0]!.media_id}/original`)) as AsyncIterable<Buffer>) stored.update(chunk);
    expect(stored.digest('hex')).toBe(sourceHash);
    const media = await sessions.query('SELECT status, file_size FROM media.media WHERE id = $1', [rows[0]!.media_id]);
    expect(media.rows).toEqual([{ status: 'processing', file_size: String(SIZE) }]);
    await sessions.end();
    second.process.kill('SIGTERM');

    console.log(JSON.stringify({
      crashResume: { sizeMb: SIZE / MiB, seconds: (Date.now() - started) / 1000, offsetAtKillMb: +(atKill / MiB).toFixed(1), peakRssMb: { first: Math.round(first.peakRssMb), second: Math.round(second.peakRssMb) } },
    }));
  }, 600_000);
});
