import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createLogger, deleteWorkStream, EventWriter, FsObjectStorage, JetStreamEventBus, JetStreamWorkQueue, openDatabase, Transactions } from '@timeliner/platform';
import { Realtime, type RealtimeMessage } from '@timeliner/proto';
import { createTestDatabase, deleteBusStreams, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import type { DataSource } from 'typeorm';
import { Media } from '../../src/media/media.entity.js';
import { MediaRepository } from '../../src/media/media.repository.js';
import { originalKey } from '../../src/storage/object-keys.js';
import { FairProcessing, jobOf } from '../../src/queue/fair-processing.js';
import { WorkQueueProcessing } from '../../src/queue/work-queue-processing.js';
import { schema } from '../../src/schema.js';
import { UploadCompletion, WAITING_FOR_TURN } from '../../src/uploads/upload-completion.js';
import { type RunningMediaWorker, startMediaWorker } from '../../src/worker-runtime.js';

const exec = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH || '/usr/bin/ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || '/usr/bin/ffprobe';

/**
 * Hostile files an attacker with a free account can make in a second, each small: a sparse video
 * (two 1080p frames 600 s apart, declared 60 fps), a 2-hour one of two frames, videos past the
 * frame-rate and pixel limits, and a 16,000 x 16,000 PNG. Made with ffmpeg, processed by the real
 * worker (ffmpeg, Postgres, NATS).
 */
const sparse = (name: string, gap: number, size = '1920x1080', rate = 60) => ({
  name,
  args: [
    '-f', 'lavfi', '-i', `color=c=0x336699:size=${size}:rate=${rate}`, '-frames:v', '2', '-vf', `setpts=N*${gap}/TB`, '-fps_mode', 'vfr',
    '-c:v', 'libx264', '-preset', 'medium', '-crf', '51', '-bsf:v', 'filter_units=remove_types=6',
  ],
});
const clip = (name: string, size: string, seconds: number) => ({
  name,
  args: [
    '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest',
  ],
});
const SOURCES = [
  sparse('sparse.mkv', 600),
  sparse('two-hours.mkv', 7_200),
  clip('a-clip-1.mp4', '1280x720', 3),
  clip('a-clip-2.mp4', '1280x720', 3),
  clip('b-clip.mp4', '1280x720', 3),
  clip('long-1080.mp4', '1920x1080', 8),
  { name: 'fast.mp4', args: ['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=480:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast'] },
  { name: 'uhd120.mp4', args: ['-f', 'lavfi', '-i', 'color=c=gray:size=3840x2160:rate=120', '-frames:v', '2', '-c:v', 'libx264', '-preset', 'ultrafast'] },
  { name: 'huge-frame.mkv', args: ['-f', 'lavfi', '-i', 'color=c=gray:size=10000x10000:rate=1', '-frames:v', '2', '-c:v', 'mjpeg', '-q:v', '31'] },
  { name: 'bomb.png', args: ['-f', 'lavfi', '-i', 'color=c=white:size=16000x16000', '-frames:v', '1', '-pix_fmt', 'gray'] },
];

jest.setTimeout(180_000);

/**
 * CPU seconds of this process and its finished children (the worker's ffmpeg and ffprobe), from
 * /proc: what a job costs the machine, whatever else runs beside it (wall-clock time on a shared
 * test machine stretches with its load).
 */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime (fields 16 and 17), in clock ticks of 1/100 s.
  return (own.user + own.system) / 1e6 + (Number(fields[13]) + Number(fields[14])) / 100;
}

describe('processing limits and turns (real ffmpeg, Postgres, NATS)', () => {
  const prefix = testBusPrefix('medialimits');
  const logger = createLogger('media-limits-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  let db: TestDatabase;
  let dataSource: DataSource;
  let bus: JetStreamEventBus;
  let queue: JetStreamWorkQueue;
  let storage: FsObjectStorage;
  let worker: RunningMediaWorker;
  let turns: FairProcessing;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'media-limits-test-'));
    db = await createTestDatabase('medialimits', { schemas: [schema] });
    [dataSource, bus, queue] = await Promise.all([
      openDatabase({ url: db.url, schema: schema.name, entities: schema.entities, migrations: schema.migrations }),
      JetStreamEventBus.connect({ servers: testNatsUrl(), prefix, name: 'media-limits-test', logger }),
      JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix, name: 'media-limits-test', logger }),
    ]);
    storage = new FsObjectStorage({ root: join(work, 'storage') });
    await storage.init();
    const pending = [...SOURCES];
    await Promise.all(
      [0, 1].map(async () => {
        for (let source = pending.shift(); source; source = pending.shift()) {
          await exec(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...source.args, join(work, source.name)]);
        }
      }),
    );
    // The worker as deployed: default limits, one job at a time, one media per person in the queue.
    worker = await startMediaWorker({
      dataSource, bus, storage, logger, queue, concurrency: 1, ffmpegPath: FFMPEG, ffprobePath: FFPROBE,
      jobPolicy: { maxDeliver: 2, backoffMs: [200], ackExtendMs: 2_000 }, tempDir: work,
    });
    // What the API queues through (service.ts): the same turns over the same work queue.
    turns = new FairProcessing(new MediaRepository(dataSource), new Transactions(dataSource), new WorkQueueProcessing(queue), logger, 1);
  });

  afterAll(async () => {
    await worker?.close();
    await queue?.close();
    await bus?.close();
    await dataSource?.destroy();
    await db?.drop();
    await deleteWorkStream(testNatsUrl(), prefix);
    await deleteBusStreams(testNatsUrl(), prefix);
    await rm(work, { recursive: true, force: true });
  });

  /** Stores the file and records the media as an upload does; then offers it to the queue as the API does (unless `null`). */
  async function upload(name: string, uploaderId: string, queueThrough: FairProcessing | null = turns): Promise<{ id: string; uploadedAt: number; outcome: unknown }> {
    const id = randomUUID();
    const image = name.endsWith('.png');
    const bytes = await readFile(join(work, name));
    await storage.put(originalKey(id), bytes, { contentType: image ? 'image/png' : 'video/mp4' });
    const uploadedAt = Date.now();
    await dataSource.getRepository(Media).insert({
      id, timelineId: randomUUID(), uploaderId, filename: originalKey(id), originalName: name, title: name,
      mediaType: image ? 'image' : 'video', fileSize: bytes.length, mimeType: image ? 'image/png' : 'video/mp4', status: 'processing', uploadedAt: new Date(uploadedAt),
    });
    const media = await dataSource.getRepository(Media).findOneByOrFail({ id });
    const outcome = queueThrough ? await queueThrough.enqueue(jobOf(media)) : undefined;
    return { id, uploadedAt, outcome };
  }

  async function done(id: string, ms = 60_000): Promise<Media & { at: number }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const media = await dataSource.getRepository(Media).findOneByOrFail({ id });
      if (media.status === 'completed' || media.status === 'error') return Object.assign(media, { at: Date.now() });
      if (Date.now() > deadline) throw new Error(`${media.originalName} still ${media.status} after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a 1 KB sparse video (two 1080p frames 600 s apart at 60 fps) costs seconds, and another person waits for one job at most', async () => {
    expect((await stat(join(work, 'sparse.mkv'))).size).toBeLessThan(2_000);
    const attacker = randomUUID();
    const other = randomUUID();
    const cpuBefore = cpuSeconds();
    const sparseJob = await upload('sparse.mkv', attacker);
    const second = await upload('a-clip-1.mp4', attacker);
    const third = await upload('a-clip-2.mp4', attacker);
    const theirs = await upload('b-clip.mp4', other);
    // One of the attacker's media in the queue; the rest wait their turn. The other person's goes in at once.
    expect([sparseJob.outcome, second.outcome, third.outcome, theirs.outcome]).toEqual(['queued', 'waiting', 'waiting', 'queued']);

    const sparseDone = await done(sparseJob.id, 60_000);
    const sparseCpu = cpuSeconds() - cpuBefore;
    const sparseSeconds = (sparseDone.at - sparseJob.uploadedAt) / 1000;
    console.log(`sparse 600 s 1080p60 file of ${(await stat(join(work, 'sparse.mkv'))).size} bytes: ${sparseSeconds.toFixed(2)} s, ${sparseCpu.toFixed(2)} CPU s`);
    expect(sparseDone.status).toBe('completed');
    expect(sparseDone.metadata.renditions).toEqual([144, 360, 720, 1080]);
    // The bar: at most 10 s of worker time (it encoded 36,000 frames per rung: 849 s). Its CPU
    // seconds are held to it; the wall clock gets room for a test machine shared with other work.
    expect(sparseCpu).toBeLessThanOrEqual(10);
    expect(sparseSeconds).toBeLessThanOrEqual(30);

    const theirsDone = await done(theirs.id, 90_000);
    const waited = (theirsDone.at - theirs.uploadedAt) / 1000;
    console.log(`the other person's 3 s clip, queued behind it: ready ${waited.toFixed(2)} s after its upload`);
    expect(theirsDone.status).toBe('completed');
    // Held by one job (the sparse one), not by the attacker's four: the order below says so. The bar
    // is 10 s (bench/processing.mjs measures it); a test machine shared with other work gets room.
    expect(waited).toBeLessThanOrEqual(60);

    const [secondDone, thirdDone] = [await done(second.id, 90_000), await done(third.id, 90_000)];
    expect([secondDone.status, thirdDone.status]).toEqual(['completed', 'completed']);
    // The attacker's later uploads went behind the other person's, in their own order.
    expect(theirsDone.processedAt!.getTime()).toBeLessThan(secondDone.processedAt!.getTime());
    expect(secondDone.processedAt!.getTime()).toBeLessThan(thirdDone.processedAt!.getTime());
  });

  it('refuses videos past the limits from the probe, before decoding, with a reason the creator reads', async () => {
    const person = randomUUID();
    const cases: Array<[string, RegExp]> = [
      ['two-hours.mkv', /^The video is 2:00:00 long; videos can be at most 1:00:00$/],
      ['fast.mp4', /^The video has 480 frames per second; videos can have at most 240$/],
      ['uhd120.mp4', /^The video is 3840 × 2160 at 120 frames per second, more than can be processed \(at most 500 megapixels a second\)$/],
      ['huge-frame.mkv', /^The video's picture is 10000 × 10000 pixels; videos can be at most 35\.4 megapixels$/],
    ];
    for (const [name, reason] of cases) {
      const { id, uploadedAt } = await upload(name, person);
      const media = await done(id, 20_000);
      const seconds = (media.at - uploadedAt) / 1000;
      console.log(`${name}: ${media.status} after ${seconds.toFixed(2)} s: ${media.errorReason}`);
      expect(media.status).toBe('error');
      expect(media.errorReason).toMatch(reason);
      expect(seconds).toBeLessThanOrEqual(10);
      expect(media.metadata.renditions ?? []).toEqual([]);
    }
  });

  it('refuses a 16,000 x 16,000 PNG from its header, without decoding it', async () => {
    const size = (await stat(join(work, 'bomb.png'))).size;
    const { id, uploadedAt } = await upload('bomb.png', randomUUID());
    const media = await done(id, 20_000);
    const seconds = (media.at - uploadedAt) / 1000;
    console.log(`${size} byte 16000x16000 PNG: ${media.status} after ${seconds.toFixed(2)} s: ${media.errorReason}`);
    expect(media.status).toBe('error');
    expect(media.errorReason).toBe('The image is 16000 × 16000 pixels; images can be at most 50 megapixels');
    expect(seconds).toBeLessThanOrEqual(5);
  });

  it('a queued media whose job was lost does not hold its person\'s later uploads: the worker looks for lost jobs while it runs', async () => {
    const ownPrefix = testBusPrefix('medialimitslost');
    const ownQueue = await JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix: ownPrefix, name: 'media-limits-lost', logger });
    const ownTurns = new FairProcessing(new MediaRepository(dataSource), new Transactions(dataSource), new WorkQueueProcessing(ownQueue), logger, 1);
    const person = randomUUID();
    try {
      // Queued (queued_at set), but its job is gone; the person's next upload waits its turn behind it.
      const lost = await upload('a-clip-1.mp4', person, new FairProcessing(new MediaRepository(dataSource), new Transactions(dataSource), { enqueue: async () => undefined }, logger, 1));
      const next = await upload('a-clip-2.mp4', person, ownTurns);
      expect([lost.outcome, next.outcome]).toEqual(['queued', 'waiting']);
      const watcher = await startMediaWorker({
        dataSource, bus, storage, logger, queue: ownQueue, concurrency: 1, ffmpegPath: FFMPEG, ffprobePath: FFPROBE, requeueOnStart: false,
        jobPolicy: { maxDeliver: 2, backoffMs: [200], ackExtendMs: 2_000 }, tempDir: work, lostJobsIntervalMs: 300,
      });
      try {
        expect((await done(lost.id, 60_000)).status).toBe('completed');
        expect((await done(next.id, 60_000)).status).toBe('completed');
      } finally {
        await watcher.close();
      }
    } finally {
      await ownQueue.close();
      await deleteWorkStream(testNatsUrl(), ownPrefix);
    }
  });

  it('a video waiting for its person\'s earlier uploads says so in the studio, then is processed in its turn', async () => {
    const messages: RealtimeMessage[] = [];
    const realtime = await bus.subscribe(Realtime.allSubjects, (message) => void messages.push(Realtime.decode(message.data)));
    // The API's side of an upload, after its commit: queue it (or not yet) and tell the timeline's watchers.
    const completion = new UploadCompletion(new MediaRepository(dataSource), new EventWriter(), turns, bus, logger);
    const person = randomUUID();
    try {
      const first = await upload('a-clip-1.mp4', person, null);
      const second = await upload('a-clip-2.mp4', person, null);
      for (const { id } of [first, second]) await completion.announce(await dataSource.getRepository(Media).findOneByOrFail({ id }));
      const waiting = (id: string) => messages.filter((m) => m.type === 'video_processing_progress' && m.videoId === id && m.progress.stage === 'waiting');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(waiting(first.id)).toEqual([]);
      expect(waiting(second.id).map((m) => (m as { progress: { message: string } }).progress.message)).toEqual([WAITING_FOR_TURN]);
      expect((await done(first.id, 90_000)).status).toBe('completed');
      expect((await done(second.id, 90_000)).status).toBe('completed');
    } finally {
      await realtime.unsubscribe();
    }
  });

  it('stops a job past its time (in proportion to the video\'s length) and says so', async () => {
    // A second worker on its own queue, allowed 1 s plus 0.1 s per second of video: 1.8 s for 8 s of 1080p.
    const ownPrefix = testBusPrefix('medialimitsclock');
    const ownQueue = await JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix: ownPrefix, name: 'media-limits-clock', logger });
    const strict = await startMediaWorker({
      dataSource, bus, storage, logger, queue: ownQueue, concurrency: 1, ffmpegPath: FFMPEG, ffprobePath: FFPROBE, requeueOnStart: false,
      jobPolicy: { maxDeliver: 2, backoffMs: [200], ackExtendMs: 2_000 }, tempDir: work, limits: { jobBaseSeconds: 1, jobSecondsPerMediaSecond: 0.1 },
    });
    try {
      const { id, uploadedAt } = await upload('long-1080.mp4', randomUUID(), new FairProcessing(new MediaRepository(dataSource), new Transactions(dataSource), new WorkQueueProcessing(ownQueue), logger, 1));
      const media = await done(id, 30_000);
      console.log(`8 s 1080p with 1.8 s allowed: ${media.status} after ${((media.at - uploadedAt) / 1000).toFixed(2)} s: ${media.errorReason}`);
      expect(media.status).toBe('error');
      expect(media.errorReason).toMatch(/^Processing was stopped after 0:0[12], the most this file may take$/);
      // Stopped, not retried: one attempt, and nothing left running.
      expect(media.at - uploadedAt).toBeLessThan(8_000);
    } finally {
      await strict.close();
      await ownQueue.close();
      await deleteWorkStream(testNatsUrl(), ownPrefix);
    }
  });
});
