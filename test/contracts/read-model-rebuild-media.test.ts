import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, fromBinary } from '@bufbuild/protobuf';
import request from 'supertest';
import { DataSource } from 'typeorm';
import webpush from 'web-push';
import {
  consumeEvents,
  createEventBus,
  createLogger,
  createWorkQueue,
  deleteWorkStream,
  type EventBus,
  FileMailSender,
  FsObjectStorage,
  openDatabase,
  Outbox,
  requestRpc,
  type RunningService,
  signIdentity,
  type Subscription,
  type WorkQueue,
} from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, type TestDatabase, type TestSchema, testBusPrefix, testNatsUrl } from '@timeliner/platform/testing';
import { MediaEvents, MediaRpc, MediaStatus, MediaType, type ReadModelProgress, ReadModelProgressSchema, ReadModelRebuild, ReplayedMediaSchema, TimelinesRpc } from '@timeliner/proto';
import { authSchema, startAuthService } from '../../services/auth/src/index.js';
import { mediaSchema, type RunningMediaService, startMediaService } from '../../services/media/src/index.js';
import { notificationsSchema, startNotificationsService } from '../../services/notifications/src/index.js';
import { socialSchema, startSocialService } from '../../services/social/src/index.js';
import { videoEventHandlers } from '../../services/social/src/videos/video-events.js';
import { mediaReadModel } from '../../services/social/src/videos/video-rebuild.js';
import { startTimelinesService, timelinesSchema } from '../../services/timelines/src/index.js';
import { altTextsReadModel } from '../../services/timelines/src/timelines/media-rebuild.js';

/**
 * The copies of the media service's items rebuilt from its replay (MediaRpc.Replay) while the
 * system runs, all real (Postgres, NATS JetStream, file storage, uploads through the media API):
 * social's videos and images (what likes, comments and reports are checked against) and the
 * timelines service's descriptions of the videos (the cover's goes on the cards), and the
 * notifications service's uploaders of the videos (told when processing ends). Items made
 * before a copy recorded them are simulated by deleting the copy's rows.
 */
const logger = createLogger('read-model-rebuild-media', process.env.TEST_LOG_LEVEL ?? 'silent');

let bus: EventBus;
let queue: WorkQueue;
let prefix: string;
let secret: string;
let work: string;
const dbs: TestDatabase[] = [];
let auth: RunningService;
let timelines: RunningService;
let social: RunningService;
let notifications: RunningService;
let media: RunningMediaService;
let socialReference: { dataSource: DataSource; consumer: Subscription };
let owner: string;
let reporter: string;
let timeline: string;
const videos: string[] = [];
const images: string[] = [];

function call(service: RunningService, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, userId?: string, ip = '198.51.100.9') {
  const requestId = `mediacopies-${randomBytes(6).toString('hex')}`;
  const headers = signIdentity(secret, { userId, sessionId: userId ? randomUUID() : undefined, clientIp: ip }, { requestId, method: method.toUpperCase(), url: path });
  return request(service.url)[method](path).set(headers).set('x-request-id', requestId);
}

const rows = (service: RunningService) => async <T>(sql: string, params: unknown[] = []) => (await service.app.get(DataSource).query(sql, params)) as T[];

async function until(check: () => Promise<boolean>, ms: number, what = 'the copies'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const mp4 = () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), randomBytes(3000)]);
const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(3000)]);

async function upload(kind: 'video' | 'image'): Promise<string> {
  const res = await call(media, 'post', `/api/timelines/${timeline}/media`, owner)
    .attach('media', kind === 'video' ? mp4() : png(), kind === 'video' ? { filename: 'clip.mp4', contentType: 'video/mp4' } : { filename: 'view.png', contentType: 'image/png' })
    .expect(201);
  (kind === 'video' ? videos : images).push(res.body.id);
  return res.body.id as string;
}

/** What the processing worker announces of a finished video (none runs here): its row completed and VideoProcessed sent. */
async function processed(mediaId: string): Promise<void> {
  await media.dataSource.transaction(async (manager) => {
    await manager.query(`UPDATE media SET status = 'completed', duration = 4 WHERE id = $1`, [mediaId]);
    await Outbox.add(manager, MediaEvents.VideoProcessed, { mediaId, timelineId: timeline, duration: 4, width: 640, height: 360, renditions: [360] });
  });
}

/** Asks a service to rebuild one model, as `npm run read-model -- rebuild <service> --model <model>` does; resolves with the progress lines once finished. */
async function rebuild(service: string, model: string): Promise<ReadModelProgress[]> {
  const lines: ReadModelProgress[] = [];
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const sub = await bus.subscribe(ReadModelRebuild.progressSubject(service), (message) => {
    const progress = fromBinary(ReadModelProgressSchema, message.data);
    lines.push(progress);
    if (progress.finished) finished();
  });
  try {
    const reply = await requestRpc(bus, ReadModelRebuild.rpc(service), { model }, { timeoutMs: 5_000 });
    expect(reply.alreadyRunning).toBe(false);
    expect(reply.models).toEqual([model]);
    await done;
  } finally {
    await sub.unsubscribe();
  }
  return lines;
}

async function database(label: string, schema: TestSchema): Promise<string> {
  const db = await createTestDatabase(label, { schemas: [schema] });
  dbs.push(db);
  return db.url;
}

beforeAll(async () => {
  prefix = testBusPrefix('rebuildmedia');
  bus = await createEventBus({ natsUrl: testNatsUrl(), prefix, logger });
  queue = await createWorkQueue({ natsUrl: testNatsUrl(), prefix, logger });
  secret = randomBytes(32).toString('hex');
  work = await mkdtemp(join(tmpdir(), 'rebuild-media-'));
  const storage = new FsObjectStorage({ root: join(work, 'storage') });
  await storage.init();
  const common = { bus, logger, identitySecret: secret, port: 0, host: '127.0.0.1' };
  auth = await startAuthService({ ...common, databaseUrl: await database('mediacopiesauth', authSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  timelines = await startTimelinesService({ ...common, databaseUrl: await database('mediacopiestimelines', timelinesSchema), mail: new FileMailSender({ dir: join(work, 'mail') }) });
  social = await startSocialService({ ...common, databaseUrl: await database('mediacopiessocial', socialSchema) });
  notifications = await startNotificationsService({
    ...common,
    databaseUrl: await database('mediacopiesnotifications', notificationsSchema),
    workQueue: queue,
    vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@timeliner.test' },
  });
  media = await startMediaService({ ...common, databaseUrl: await database('mediacopiesmedia', mediaSchema), storage, workQueue: queue, sweepIntervalMs: 0 });
  // Social's videos as the events alone build them: a consumer group of its own with the same handlers.
  const referenceSource = await openDatabase({ url: await database('mediacopiessocialref', socialSchema), schema: socialSchema.name, entities: socialSchema.entities, migrations: socialSchema.migrations, logger });
  socialReference = { dataSource: referenceSource, consumer: await consumeEvents(bus, { durable: 'mediacopiessocialref', dataSource: referenceSource, logger }, videoEventHandlers) };

  const register = async (name: string, ip: string) =>
    (await call(auth, 'post', '/api/auth/register', undefined, ip)
      .send({ username: `${name}_${randomBytes(3).toString('hex')}`, email: `${name}_${randomBytes(3).toString('hex')}@example.com`, password: `Pw-${randomBytes(12).toString('hex')}`, displayName: name })
      .expect(201)).body.user.id as string;
  owner = await register('owner', '198.51.100.61');
  reporter = await register('reporter', '198.51.100.62');
  await until(async () => (await rows(timelines)<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n === 2, 15_000, 'timelines to know the people');
  await until(async () => (await rows(social)<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0]!.n === 2, 15_000, 'social to know the people');
  timeline = (await call(timelines, 'post', '/api/timelines', owner).send({ title: 'Coast walk', description: 'Cliffs' }).expect(201)).body.id as string;
  await call(timelines, 'patch', `/api/timelines/${timeline}`, owner).send({ visibility: 'public', status: 'published' }).expect(200);
  for (let i = 0; i < 4; i++) await upload('video');
  for (let i = 0; i < 3; i++) await upload('image');
}, 120_000);

afterAll(async () => {
  await socialReference?.consumer.unsubscribe();
  await socialReference?.dataSource.destroy();
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
});

const VIDEOS_SQL = 'SELECT id, timeline_id, media_type FROM videos WHERE NOT deleted ORDER BY id';

describe('rebuilding the copies of the media service’s items from its replay', () => {
  it('answers pages in id order with each item’s type, status, timeline, uploader and description', async () => {
    const first = await requestRpc(bus, MediaRpc.Replay, { limit: 5 }, { timeoutMs: 5_000 });
    expect(Number(first.total)).toBe(7);
    const rest = await requestRpc(bus, MediaRpc.Replay, { afterId: first.media.at(-1)!.mediaId, limit: 5 }, { timeoutMs: 5_000 });
    expect(Number(rest.total)).toBe(0);
    const all = [...first.media, ...rest.media];
    expect(all.map((m) => m.mediaId)).toEqual([...videos, ...images].sort());
    for (const item of all) {
      expect(item).toMatchObject({ timelineId: timeline, uploaderId: owner, status: MediaStatus.PROCESSING, altText: '', altTextVersion: 0n, sensitive: false });
      expect(item.mediaType).toBe(videos.includes(item.mediaId) ? MediaType.VIDEO : MediaType.IMAGE);
    }
    const byId = await requestRpc(bus, MediaRpc.Replay, { mediaIds: [images[0]!, randomUUID()] }, { timeoutMs: 5_000 });
    expect(byId.media.map((m) => m.mediaId)).toEqual([images[0]]);
  });

  it('social’s videos from empty, an image unknown there until then: equal to the copy built from events, and the image reportable again', async () => {
    // One item deleted with its event, as a person deletes it; the copies both keep its tombstone.
    const deleted = videos.pop()!;
    await call(media, 'delete', `/api/videos/${deleted}`, owner).expect(204);
    const want = JSON.stringify(await rows(media)('SELECT id, timeline_id, media_type FROM media ORDER BY id'));
    await until(async () => JSON.stringify(await rows(social)(VIDEOS_SQL)) === want && JSON.stringify(await socialReference.dataSource.query(VIDEOS_SQL)) === want, 15_000);

    // An image uploaded before social recorded images: its report answers 404.
    const [unknown] = images;
    await rows(social)('DELETE FROM videos WHERE id = $1', [unknown]);
    const report = () => call(social, 'post', '/api/reports', reporter).send({ contentType: 'video', contentId: unknown, reason: 'spam' });
    await report().expect(404);

    // Emptied as a new deployment starts, with an item the media service no longer has (its deletion was not heard of).
    const stale = randomUUID();
    await rows(social)('DELETE FROM videos');
    await rows(social)(`INSERT INTO videos (id, timeline_id, media_type) VALUES ($1, $2, 'video')`, [stale, timeline]);
    const started = performance.now();
    const lines = await rebuild('social', 'media');
    const last = lines.at(-1)!;
    logger.info({ ms: performance.now() - started, last }, 'social media rebuilt');
    expect(last.error).toBe('');
    expect(last.finished).toBe(true);
    expect(Number(last.done)).toBe(6);
    expect(Number(last.removed)).toBe(1);

    expect(await rows(social)(VIDEOS_SQL)).toEqual(await socialReference.dataSource.query(VIDEOS_SQL));
    expect(JSON.stringify(await rows(social)(VIDEOS_SQL))).toBe(want);
    expect(await rows(social)('SELECT deleted FROM videos WHERE id = $1', [stale])).toEqual([{ deleted: true }]);
    await report().expect(201);
  }, 60_000);

  it('a replayed item never brings back one deleted here', async () => {
    const [gone] = images.slice(-1);
    await rows(social)('UPDATE videos SET deleted = true WHERE id = $1', [gone]);
    const model = mediaReadModel(bus);
    await social.app.get(DataSource).transaction((manager) =>
      model.apply(manager, create(ReplayedMediaSchema, { mediaId: gone!, timelineId: timeline, uploaderId: owner, mediaType: MediaType.IMAGE, status: MediaStatus.READY })),
    );
    expect(await rows(social)('SELECT deleted, media_type FROM videos WHERE id = $1', [gone])).toEqual([{ deleted: true, media_type: 'image' }]);
  });

  it('a description written before its event existed reaches the timeline’s snapshot and the feed’s card after the timelines rebuild; an older one changes nothing', async () => {
    const [cover, other] = videos;
    await processed(cover!);
    await processed(other!);
    await until(async () => (await rows(timelines)<{ n: number }>('SELECT video_count AS n FROM timelines WHERE id = $1', [timeline]))[0]!.n === 2, 15_000, 'the videos to count');
    const snapshot = async () => (await requestRpc(bus, TimelinesRpc.Replay, { timelineIds: [timeline] }, { timeoutMs: 5_000 })).snapshots[0]!;
    const coverId = (await snapshot()).coverMediaId;
    expect([cover, other]).toContain(coverId);

    await call(media, 'put', `/api/videos/${coverId}/alt-text`, owner).send({ altText: 'Waves on the rocks at dusk' }).expect(200);
    await until(async () => (await snapshot()).coverAltText === 'Waves on the rocks at dusk', 15_000, 'the cover’s description');
    // Written before MediaAltTextChanged existed: the timelines service never heard of it.
    await rows(timelines)('DELETE FROM media_alt_texts WHERE media_id = $1', [coverId]);
    expect((await snapshot()).coverAltText).toBe('');

    const lines = await rebuild('timelines', 'alt-texts');
    const last = lines.at(-1)!;
    expect(last.error).toBe('');
    expect(last.finished).toBe(true);
    expect(Number(last.done)).toBe(6);
    expect(await rows(timelines)('SELECT alt_text, version::text AS version FROM media_alt_texts WHERE media_id = $1', [coverId])).toEqual([{ alt_text: 'Waves on the rocks at dusk', version: '1' }]);
    expect((await snapshot()).coverAltText).toBe('Waves on the rocks at dusk');
    // The snapshot it published reaches the feed's copy (the card).
    await until(async () => (await rows(social)<{ text: string | null }>('SELECT cover_alt_text AS text FROM feed_timelines WHERE id = $1', [timeline]))[0]?.text === 'Waves on the rocks at dusk', 15_000, 'the feed’s card');

    // A replayed text older than the copy's changes nothing and publishes no snapshot.
    await call(media, 'put', `/api/videos/${coverId}/alt-text`, owner).send({ altText: 'Waves at dusk, from the cliff path' }).expect(200);
    await until(async () => (await snapshot()).coverAltText === 'Waves at dusk, from the cliff path', 15_000, 'the newer description');
    const revision = (await snapshot()).revision;
    await timelines.app.get(DataSource).transaction((manager) =>
      altTextsReadModel(bus).apply(manager, create(ReplayedMediaSchema, { mediaId: coverId, timelineId: timeline, uploaderId: owner, mediaType: MediaType.VIDEO, status: MediaStatus.READY, altText: 'Waves on the rocks at dusk', altTextVersion: 1n })),
    );
    expect(await rows(timelines)('SELECT alt_text, version::text AS version FROM media_alt_texts WHERE media_id = $1', [coverId])).toEqual([{ alt_text: 'Waves at dusk, from the cliff path', version: '2' }]);
    expect((await snapshot()).revision).toBe(revision);
    // A second rebuild finds everything as it is: nothing changes.
    const again = (await rebuild('timelines', 'alt-texts')).at(-1)!;
    expect(again.error).toBe('');
    expect(Number(again.removed)).toBe(0);
    expect((await snapshot()).revision).toBe(revision);
  }, 60_000);

  it('notifications’ uploaders of the videos from empty: every video the media service has, none it deleted', async () => {
    const VIDEOS = 'SELECT id, timeline_id, uploader_id, original_name FROM videos ORDER BY id';
    const want = JSON.stringify(await rows(media)(`SELECT id, timeline_id, uploader_id, original_name FROM media WHERE media_type = 'video' ORDER BY id`));
    await until(async () => JSON.stringify(await rows(notifications)(VIDEOS)) === want, 15_000, 'notifications to know the videos');
    const stale = randomUUID();
    await rows(notifications)('DELETE FROM videos');
    await rows(notifications)(`INSERT INTO videos (id, timeline_id, uploader_id, original_name) VALUES ($1, $2, $3, 'old.mp4')`, [stale, timeline, owner]);
    const last = (await rebuild('notifications', 'videos')).at(-1)!;
    expect(last.error).toBe('');
    expect(Number(last.removed)).toBe(1);
    expect(JSON.stringify(await rows(notifications)(VIDEOS))).toBe(want);
    expect(await rows(notifications)(`SELECT id FROM tombstones WHERE kind = 'video' AND id = $1`, [stale])).toHaveLength(1);
  }, 60_000);
});
