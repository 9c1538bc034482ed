import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { DataSource } from 'typeorm';
import webpush from 'web-push';
import { createEventBus, createLogger, createWorkQueue, deleteWorkStream, type EventBus, FileMailSender, FsObjectStorage, type RunningService, signIdentity, type WorkQueue } from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, type TestDatabase, type TestSchema, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { authSchema, startAuthService } from '../../services/auth/src/index.js';
import { mediaSchema, type RunningMediaService, startMediaService } from '../../services/media/src/index.js';
import { type RunningMediaWorker, startMediaWorker } from '../../services/media/src/worker-runtime.js';
import { notificationsSchema, startNotificationsService } from '../../services/notifications/src/index.js';
import { socialSchema, startSocialService } from '../../services/social/src/index.js';
import { startTimelinesService, timelinesSchema } from '../../services/timelines/src/index.js';

/**
 * "Download your data" across the services, all real: auth, social, timelines and notifications
 * answer the person's pages over NATS, the media worker takes the job from the JetStream work
 * queue and streams the ZIP into file storage. The archive is unzipped with the system's `unzip`
 * and its JSON and files compared with what the person made; the second export of the day is
 * refused; the sweep deletes the file once its seven days are over.
 */
const logger = createLogger('data-export', process.env.TEST_LOG_LEVEL ?? 'silent');
const exec = promisify(execFile);

let bus: EventBus;
let queue: WorkQueue;
let prefix: string;
let secret: string;
let work: string;
let storage: FsObjectStorage;
const dbs: TestDatabase[] = [];
let auth: RunningService;
let timelines: RunningService;
let social: RunningService;
let notifications: RunningService;
let media: RunningMediaService;
let worker: RunningMediaWorker;

const service = (name: 'auth' | 'timelines' | 'social' | 'notifications' | 'media'): RunningService => ({ auth, timelines, social, notifications, media })[name];

function call(name: 'auth' | 'timelines' | 'social' | 'notifications' | 'media', method: 'get' | 'post' | 'put' | 'delete', path: string, userId?: string) {
  const requestId = `dx-${randomBytes(6).toString('hex')}`;
  const sessionId = userId ? randomUUID() : undefined;
  const headers = signIdentity(secret, { userId, sessionId, clientIp: '198.51.100.77' }, { requestId, method: method.toUpperCase(), url: path });
  return request(service(name).url)[method](path).set(headers).set('x-request-id', requestId);
}

const rows = async <T>(name: 'social' | 'timelines' | 'media', sql: string, params: unknown[] = []): Promise<T[]> => (await service(name).app.get(DataSource).query(sql, params)) as T[];

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function database(label: string, schema: TestSchema): Promise<string> {
  const db = await createTestDatabase(label, { schemas: [schema] });
  dbs.push(db);
  return db.url;
}

const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
const binary = (res: unknown, done: (err: Error | null, body: unknown) => void) => {
  const chunks: Buffer[] = [];
  const stream = res as NodeJS.ReadableStream;
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

interface Made {
  ada: string;
  bob: string;
  adaName: string;
  trip: string;
  empty: string;
  bobsTimeline: string;
  adaPost: string;
  bobPost: string;
  comment: string;
  collection: string;
  /** Ada's items of the trip, in the timeline's order: id and original bytes. */
  items: Array<{ id: string; name: string; bytes: Buffer }>;
}
const made = {} as Made;

/** An item of a timeline as the upload would leave it: its original in storage, its row completed. */
async function addItem(timelineId: string, uploader: string, position: number, name: string, type: 'video' | 'image', bytes: Buffer): Promise<string> {
  const id = randomUUID();
  await storage.put(`media/${id}/original`, bytes, { contentType: type === 'video' ? 'video/mp4' : 'image/png' });
  await rows('media',
    `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'completed', $11, now())`,
    [id, timelineId, uploader, `media/${id}/original`, name, name.replace(/\..*$/, ''), type, type === 'video' ? 3 : 0, bytes.length, type === 'video' ? 'video/mp4' : 'image/png', position]);
  return id;
}

async function register(handle: string, displayName: string): Promise<string> {
  const res = await call('auth', 'post', '/api/auth/register').send({ username: handle, email: `${handle}@example.com`, password: `Pw-${randomBytes(12).toString('hex')}`, displayName });
  expect(res.status).toBe(201);
  return res.body.user.id as string;
}

interface DataExport {
  id: string;
  status: string;
  phase: string;
  progress: number;
  fileName: string;
  createdAt: string;
  expiresAt?: string;
  completedAt?: string;
  sizeBytes?: number;
  downloadUrl?: string;
}

beforeAll(async () => {
  prefix = testBusPrefix('dataexport');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  queue = await createWorkQueue({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  work = await mkdtemp(join(tmpdir(), 'data-export-test-'));
  storage = new FsObjectStorage({ root: join(work, 'storage') });
  await storage.init();
  const common = { bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
  auth = await startAuthService({ ...common, databaseUrl: await database('dxauth', authSchema) });
  timelines = await startTimelinesService({ ...common, databaseUrl: await database('dxtimelines', timelinesSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  social = await startSocialService({ ...common, databaseUrl: await database('dxsocial', socialSchema) });
  notifications = await startNotificationsService({
    ...common, databaseUrl: await database('dxnotifications', notificationsSchema), workQueue: queue, vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@timeliner.test' },
  });
  media = await startMediaService({ ...common, databaseUrl: await database('dxmedia', mediaSchema), storage, workQueue: queue, sweepIntervalMs: 0 });
  worker = await startMediaWorker({ dataSource: media.dataSource, bus, storage, logger, queue, requeueOnStart: false, tempDir: work });

  const handle = `ada_${randomBytes(3).toString('hex')}`;
  made.adaName = handle;
  made.ada = await register(handle, 'Ada Lovelace');
  made.bob = await register(`bob_${randomBytes(3).toString('hex')}`, 'Bob Babbage');
  await until(async () => (await rows<{ n: number }>('social', 'SELECT count(*)::int AS n FROM users WHERE id = ANY($1::uuid[])', [[made.ada, made.bob]]))[0]!.n === 2, 15_000, 'social to know the people');
  await until(async () => (await rows<{ n: number }>('timelines', 'SELECT count(*)::int AS n FROM users WHERE id = ANY($1::uuid[])', [[made.ada, made.bob]]))[0]!.n === 2, 15_000, 'timelines to know the people');

  const timeline = async (owner: string, title: string) => (await call('timelines', 'post', '/api/timelines', owner).send({ title, description: `About ${title}`, visibility: 'public' }).expect(201)).body.id as string;
  made.trip = await timeline(made.ada, 'Trip to the coast');
  made.empty = await timeline(made.ada, 'Plans');
  made.bobsTimeline = await timeline(made.bob, 'Engines');
  // The trip: an image first, then a video (positions say the order, not the insertion).
  const video = { name: 'waves at dusk.mp4', bytes: randomBytes(300_000) };
  const image = { name: 'cliff.png', bytes: randomBytes(40_000) };
  const videoId = await addItem(made.trip, made.ada, 1, video.name, 'video', video.bytes);
  const imageId = await addItem(made.trip, made.ada, 0, image.name, 'image', image.bytes);
  made.items = [{ id: imageId, ...image }, { id: videoId, ...video }];
  // Bob's own upload never goes into Ada's archive.
  await addItem(made.bobsTimeline, made.bob, 0, 'bob.mp4', 'video', randomBytes(1000));

  made.adaPost = (await call('social', 'post', '/api/posts', made.ada).send({ content: 'Hello from the coast #sea' }).expect(201)).body.id;
  made.bobPost = (await call('social', 'post', '/api/posts', made.bob).send({ content: 'Difference engine news' }).expect(201)).body.id;
  made.comment = (await call('social', 'post', `/api/posts/${made.bobPost}/comments`, made.ada).send({ content: 'Splendid!' }).expect(201)).body.id;
  await call('social', 'post', `/api/posts/${made.bobPost}/comments`, made.bob).send({ content: 'Thanks' }).expect(201);
  await call('social', 'post', `/api/posts/${made.bobPost}/like`, made.ada).expect((res) => expect(res.status).toBeLessThan(300));
  await call('social', 'post', `/api/posts/${made.bobPost}/bookmark`, made.ada).expect((res) => expect(res.status).toBeLessThan(300));
  await call('social', 'post', `/api/users/${made.bob}/follow`, made.ada).expect((res) => expect(res.status).toBeLessThan(300));
  await call('social', 'post', `/api/users/${made.ada}/follow`, made.bob).expect((res) => expect(res.status).toBeLessThan(300));
  made.collection = (await call('social', 'post', '/api/collections', made.ada).send({ name: 'Favourites', description: 'The best' }).expect(201)).body.id;
  await call('social', 'post', `/api/collections/${made.collection}/timelines`, made.ada).send({ timelineId: made.trip }).expect(201);
  await call('notifications', 'put', '/api/notifications/preferences', made.ada).send({ likes: { push: false } }).expect(200);
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await media?.close();
  await notifications?.close();
  await social?.close();
  await timelines?.close();
  await auth?.close();
  await queue?.close();
  await bus?.close();
  await deleteBusStreams(testNatsUrl(), prefix).catch(() => undefined);
  await deleteWorkStream(testNatsUrl(), prefix).catch(() => undefined);
  for (const db of dbs) await db.drop();
  await rm(work, { recursive: true, force: true });
}, 60_000);

describe('Download your data', () => {
  let done: DataExport;

  it('builds a ZIP whose JSON and files match what the person made, with progress on the way', async () => {
    const before = await call('media', 'get', '/api/account/data-exports', made.ada).expect(200);
    expect(before.body).toEqual({ export: null, nextExportAt: null });

    const started = await call('media', 'post', '/api/account/data-exports', made.ada).expect(202);
    expect(started.body).toEqual(expect.objectContaining({ status: 'queued', progress: 0, fileName: expect.stringMatching(/^timeliner-data-\d{4}-\d{2}-\d{2}\.zip$/) }));

    const seen: Array<[string, number]> = [];
    await until(async () => {
      const res = await call('media', 'get', '/api/account/data-exports', made.ada).expect(200);
      done = res.body.export as DataExport;
      seen.push([done.phase, done.progress]);
      return done.status === 'completed' || done.status === 'error';
    }, 60_000, 'the export');
    expect(done).toEqual(expect.objectContaining({ id: started.body.id, status: 'completed', phase: 'done', progress: 100 }));
    // Never backwards.
    const percents = seen.map(([, p]) => p);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    // The link and the file last seven days.
    const days = (Date.parse(done.expiresAt!) - Date.parse(done.completedAt!)) / 86_400_000;
    expect(days).toBeCloseTo(7, 5);
    expect(done.downloadUrl).toMatch(new RegExp(`^/api/account/data-exports/${done.id}/file\\?access=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));

    // The signed link opens the file without an identity.
    const file = await call('media', 'get', done.downloadUrl!).buffer(true).parse(binary).expect(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toContain('attachment;');
    expect((file.body as Buffer).length).toBe(done.sizeBytes);
    const zip = join(work, 'ada.zip');
    await writeFile(zip, file.body as Buffer);
    const out = join(work, 'unzipped');
    await exec('unzip', ['-q', '-o', zip, '-d', out]);
    const json = async <T>(name: string): Promise<T> => JSON.parse(await readFile(join(out, name), 'utf8')) as T;

    const profile = await json<Record<string, unknown>>('profile.json');
    expect(profile).toEqual(expect.objectContaining({ id: made.ada, username: made.adaName, email: `${made.adaName}@example.com`, displayName: 'Ada Lovelace' }));
    expect(profile).not.toHaveProperty('passwordHash');

    const posts = await json<Array<Record<string, unknown>>>('posts.json');
    expect(posts).toEqual([expect.objectContaining({ id: made.adaPost, content: 'Hello from the coast #sea', hashtags: ['sea'] })]);
    expect(await json('comments.json')).toEqual([expect.objectContaining({ id: made.comment, on: 'post', postId: made.bobPost, content: 'Splendid!' })]);
    expect(await json('likes.json')).toEqual([expect.objectContaining({ on: 'post', postId: made.bobPost })]);
    expect(await json('bookmarks.json')).toEqual([expect.objectContaining({ on: 'post', postId: made.bobPost })]);
    expect(await json('collections.json')).toEqual([
      expect.objectContaining({ id: made.collection, name: 'Favourites', description: 'The best', timelines: [expect.objectContaining({ timelineId: made.trip })] }),
    ]);
    expect(await json('following.json')).toEqual([expect.objectContaining({ userId: made.bob, displayName: 'Bob Babbage' })]);
    expect(await json('followers.json')).toEqual([expect.objectContaining({ userId: made.bob })]);
    const settings = await json<{ notifications: Array<Record<string, unknown>> }>('settings.json');
    expect(settings.notifications).toContainEqual({ type: 'likes', inApp: true, push: false });

    // The timelines she made, each with its items in the timeline's order and where its file is.
    const lines = await json<Array<{ id: string; title: string; items: Array<{ id: string; position: number; originalName: string; file: string | null }> }>>('timelines.json');
    expect(lines.map((t) => t.id).sort()).toEqual([made.trip, made.empty].sort());
    const trip = lines.find((t) => t.id === made.trip)!;
    expect(trip.title).toBe('Trip to the coast');
    expect(trip.items.map((item) => [item.id, item.position, item.originalName])).toEqual(made.items.map((item, position) => [item.id, position, item.name]));
    expect(lines.find((t) => t.id === made.empty)!.items).toEqual([]);

    // Each original, byte for byte, where timelines.json says; nothing of Bob's.
    for (const [i, item] of made.items.entries()) {
      const path = trip.items[i]!.file!;
      expect(path).toBe(`media/${made.trip}/${item.id}-${item.name.replace(/ /g, '_')}`);
      expect(sha(await readFile(join(out, path)))).toBe(sha(item.bytes));
    }
    expect(await readdir(join(out, 'media'))).toEqual([made.trip]);
    expect((await readFile(join(out, 'README.txt'), 'utf8'))).toContain('timelines.json');
  }, 90_000);

  it('starts one export a day: a second is refused with when the next may start', async () => {
    const refused = await call('media', 'post', '/api/account/data-exports', made.ada).expect(429);
    const next = new Date(Date.parse(done.createdAt) + 86_400_000);
    expect(refused.body.message).toBe(
      `You can download your data once a day. You can start a new export on ${next.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })} at ${next.toISOString().slice(11, 16)} UTC.`,
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(86_400 - 120);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    const state = await call('media', 'get', '/api/account/data-exports', made.ada).expect(200);
    expect(state.body.nextExportAt).toBe(next.toISOString());
    expect(state.body.export.id).toBe(done.id);
    // Nothing was queued or written for the refusal.
    expect(await rows('media', 'SELECT id FROM data_exports WHERE user_id = $1', [made.ada])).toHaveLength(1);
    // Someone else's limit is their own; a failed export does not count.
    const bobs = (await call('media', 'post', '/api/account/data-exports', made.bob).expect(202)).body.id as string;
    await until(async () => ['completed', 'error'].includes((await rows<{ status: string }>('media', 'SELECT status FROM data_exports WHERE id = $1', [bobs]))[0]!.status), 60_000, "Bob's export");
    await call('media', 'post', '/api/account/data-exports', made.bob).expect(429);
    await rows('media', `UPDATE data_exports SET status = 'error', error = 'Your data could not be gathered; please try again' WHERE id = $1`, [bobs]);
    const failed = await call('media', 'get', '/api/account/data-exports', made.bob).expect(200);
    expect(failed.body).toEqual({ export: expect.objectContaining({ id: bobs, status: 'error', error: 'Your data could not be gathered; please try again' }), nextExportAt: null });
    await call('media', 'post', '/api/account/data-exports', made.bob).expect(202);
    // An export whose job was lost (queued three hours ago, never taken) fails, and does not hold the person back.
    const dan = await register(`dan_${randomBytes(3).toString('hex')}`, 'Dan Brown');
    const lost = randomUUID();
    await rows('media', `INSERT INTO data_exports (id, user_id, status, file_name, created_at) VALUES ($1, $2, 'queued', 'x.zip', now() - interval '3 hours')`, [lost, dan]);
    const stale = await call('media', 'get', '/api/account/data-exports', dan).expect(200);
    expect(stale.body).toEqual({ export: expect.objectContaining({ id: lost, status: 'error', error: 'The export stopped before it was finished; please start a new one' }), nextExportAt: null });
    await call('media', 'post', '/api/account/data-exports', dan).expect(202);
    // Two tabs at once: one export starts, the other is refused.
    const cy = await register(`cy_${randomBytes(3).toString('hex')}`, 'Cy Young');
    const both = await Promise.all([0, 1].map(() => call('media', 'post', '/api/account/data-exports', cy)));
    expect(both.map((res) => res.status).sort()).toEqual([202, 429]);
    expect(await rows('media', 'SELECT id FROM data_exports WHERE user_id = $1', [cy])).toHaveLength(1);
    // The exports started here are made before the next case (and before the services stop).
    await until(async () => (await rows('media', `SELECT id FROM data_exports WHERE status IN ('queued', 'processing')`)).length === 0, 90_000, 'the exports started here');
  }, 180_000);

  it('opens the file only for its owner or with its link', async () => {
    const path = `/api/account/data-exports/${done.id}/file`;
    await call('media', 'get', path, made.ada).expect(200);
    await call('media', 'get', path, made.bob).expect(404);
    await call('media', 'get', path).expect(404);
    await call('media', 'get', `${path}?access=forged.token`, made.bob).expect(401);
    const token = new URL(done.downloadUrl!, 'http://x').searchParams.get('access')!;
    // A link opens its own archive only.
    await call('media', 'get', `/api/account/data-exports/${randomUUID()}/file?access=${token}`).expect(401);
    await call('media', 'post', '/api/account/data-exports').expect(401);
  });

  it('deletes the file once its seven days are over; the link then answers 410', async () => {
    const [row] = await rows<{ object_key: string }>('media', 'SELECT object_key FROM data_exports WHERE id = $1', [done.id]);
    expect(await storage.stat(row!.object_key)).not.toBeNull();
    // A day early, nothing goes.
    expect((await media.sweep(new Date(Date.parse(done.expiresAt!) - 86_400_000))).dataExportsExpired).toBe(0);
    expect(await storage.stat(row!.object_key)).not.toBeNull();
    const swept = await media.sweep(new Date(Date.parse(done.expiresAt!) + 1_000));
    expect(swept.dataExportsExpired).toBeGreaterThanOrEqual(1);
    expect(await storage.stat(row!.object_key)).toBeNull();
    const objects: string[] = [];
    for await (const object of storage.list(`data-exports/${done.id}/`)) objects.push(object.key);
    expect(objects).toEqual([]);
    const state = await call('media', 'get', '/api/account/data-exports', made.ada).expect(200);
    expect(state.body.export).toEqual(expect.objectContaining({ id: done.id, status: 'expired' }));
    expect(state.body.export).not.toHaveProperty('downloadUrl');
    const gone = await call('media', 'get', done.downloadUrl!).expect(410);
    expect(gone.body.message).toBe('This download has expired; you can start a new export');
  });
});
