import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, type ChildProcess, fork } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLogger, createObjectStorage, InProcessWorkQueue, type ObjectStorage, servePersonalData, type Subscription } from '@timeliner/platform';
import { type RunningMediaWorker, startMediaWorker } from '../src/worker-runtime.js';
import { binary, type MediaHarness, mp4Bytes, startHarness } from './harness.js';

const MiB = 1024 * 1024;
const script = fileURLToPath(new URL('../../platform/test/storage/s3rver-process.mjs', import.meta.url));
const exec = promisify(execFile);
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The archive on S3 (s3rver): the ZIP of unknown length goes up in parts as it is written, an
 * original larger than a part is read back as a stream, and a section of more records than a page
 * arrives page by page, in order. The other services are stand-ins answering their pages on the
 * bus, as the real ones do (test/contracts/data-export.test.ts runs them all).
 */
describe('Download your data on S3', () => {
  let h: MediaHarness;
  let server: ChildProcess;
  let directory: string;
  let storage: ObjectStorage;
  let queue: InProcessWorkQueue;
  let worker: RunningMediaWorker;
  const responders: Subscription[] = [];
  const posts = Array.from({ length: 1_234 }, (_, i) => ({ id: `p${String(i).padStart(5, '0')}`, content: `Post number ${i}` }));

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'media-dx-s3-'));
    server = fork(script, [directory], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const [{ port }] = (await once(server, 'message')) as [{ port: number }];
    storage = await createObjectStorage({ S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_BUCKET: 'media', DATA_DIR: directory });
    queue = new InProcessWorkQueue({});
    h = await startHarness('mediadxs3', { storage, workQueue: queue, processingQueue: queue });
    worker = await startMediaWorker({ dataSource: h.service.dataSource, bus: h.bus, storage, logger: createLogger('media-dx-s3', process.env.TEST_LOG_LEVEL ?? 'silent'), queue, requeueOnStart: false });

    const owner = h.world.owner;
    const none = async () => ({ records: [] });
    responders.push(
      await servePersonalData(h.bus, 'auth', { profile: async (userId) => ({ records: [{ id: userId, username: 'owner' }] }) }),
      await servePersonalData(h.bus, 'notifications', { settings: none }),
      await servePersonalData(h.bus, 'timelines', {
        timelines: async (userId) => ({ records: userId === owner ? [{ id: h.world.privateTimeline, title: 'Private' }] : [] }),
        collaborations: none,
      }),
      await servePersonalData(h.bus, 'social', {
        // Pages in key order after the cursor, as the real sections are.
        posts: async (_userId, cursor, limit) => {
          const rest = posts.filter((post) => post.id > cursor).slice(0, limit);
          return { records: rest, ...(rest.length === limit ? { nextCursor: rest[rest.length - 1]!.id } : {}) };
        },
        comments: none, likes: none, bookmarks: none, collections: none, following: none, followers: none,
      }),
    );
  });
  afterAll(async () => {
    for (const responder of responders) await responder.unsubscribe();
    await worker?.close();
    await h?.close();
    await queue?.close();
    const exited = once(server, 'exit');
    server.disconnect();
    await exited;
    await rm(directory, { recursive: true, force: true });
  });

  it('streams a 20 MB original and a section of three pages into a ZIP stored in parts', async () => {
    const original = mp4Bytes(20 * MiB + 333, 7);
    const id = randomUUID();
    await storage.put(`media/${id}/original`, original, { contentType: 'video/mp4' });
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at, alt_text)
       VALUES ($1, $2, $3, $4, 'long take.mp4', 'long take', 'video', 20, $5, 'video/mp4', 'completed', 0, now(), 'The harbour at dawn in one take')`,
      [id, h.world.privateTimeline, h.world.owner, `media/${id}/original`, original.length],
    );

    const started = await h.call('post', '/api/account/data-exports', h.as('owner')).expect(202);
    let state: { status: string; downloadUrl?: string; sizeBytes?: number; error?: string } = started.body;
    const deadline = Date.now() + 60_000;
    while (state.status !== 'completed' && state.status !== 'error' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = (await h.call('get', '/api/account/data-exports', h.as('owner')).expect(200)).body.export;
    }
    expect(state).toEqual(expect.objectContaining({ status: 'completed' }));
    const [row] = await h.query<{ object_key: string }>('SELECT object_key FROM data_exports WHERE id = $1', [started.body.id]);
    expect((await storage.stat(row!.object_key))?.size).toBe(state.sizeBytes);

    const file = await h.call('get', state.downloadUrl!, {}).buffer(true).parse(binary).expect(200);
    const zip = join(directory, 'archive.zip');
    await writeFile(zip, file.body as Buffer);
    const out = join(directory, 'unzipped');
    await exec('unzip', ['-q', '-o', zip, '-d', out]);
    expect(JSON.parse(await readFile(join(out, 'posts.json'), 'utf8'))).toEqual(posts);
    const [timeline] = JSON.parse(await readFile(join(out, 'timelines.json'), 'utf8')) as Array<{ id: string; items: Array<{ id: string; file: string; altText: string | null }> }>;
    expect(timeline!.items.map((item) => [item.id, item.altText])).toEqual([[id, 'The harbour at dawn in one take']]);
    expect(sha(await readFile(join(out, timeline!.items[0]!.file)))).toBe(sha(original));
    expect(JSON.parse(await readFile(join(out, 'profile.json'), 'utf8'))).toEqual({ id: h.world.owner, username: 'owner' });
  }, 90_000);
});
