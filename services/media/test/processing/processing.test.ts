import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { fromBinary } from '@bufbuild/protobuf';
import {
  createLogger,
  FsObjectStorage,
  JetStreamEventBus,
  JetStreamWorkQueue,
  deleteWorkStream,
  openDatabase,
  type Subscription,
} from '@timeliner/platform';
import { createTestDatabase, deleteBusStreams, testBusPrefix, testNatsUrl, type TestDatabase } from '@timeliner/platform/testing';
import { MediaEvents, MediaJobs, MediaType, Realtime, type RealtimeMessage } from '@timeliner/proto';
import type { Server } from 'node:http';
import type { DataSource } from 'typeorm';
import { Media } from '../../src/media/media.entity.js';
import { originalKey, processedKeys } from '../../src/storage/object-keys.js';
import { listenHealth } from '../../src/processing/health-server.js';
import { schema } from '../../src/schema.js';
import { type RunningMediaWorker, startMediaWorker } from '../../src/worker-runtime.js';

const exec = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH || '/usr/bin/ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || '/usr/bin/ffprobe';

/** Short synthetic sources made with ffmpeg's lavfi (testsrc2 + sine). */
interface Clip {
  name: string;
  kind: 'video' | 'image';
  mime: string;
  args?: string[];
  seconds?: number;
  bytes?: Buffer;
  /** Display rotation, written by a stream copy (ffmpeg 5.1 sets it only when copying). */
  rotate?: number;
}

const lavfi = (size: string, seconds: number, audio: boolean, extra: string[] = []) => [
  '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=${seconds}`,
  ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`] : []),
  '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
  ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
  ...extra,
];

const CLIPS: Clip[] = [
  { name: 'hd720.mp4', kind: 'video', mime: 'video/mp4', seconds: 4, args: lavfi('1280x720', 4, true, ['-metadata', 'creation_time=2024-05-01T10:00:00.000000Z']) },
  { name: 'hd1080.mp4', kind: 'video', mime: 'video/mp4', seconds: 4, args: lavfi('1920x1080', 4, true) },
  { name: 'portrait.mp4', kind: 'video', mime: 'video/mp4', seconds: 3, args: lavfi('720x1280', 3, true) },
  { name: 'silent.mp4', kind: 'video', mime: 'video/mp4', seconds: 3, args: lavfi('640x360', 3, false) },
  // A phone held upright: 640x360 coded, displayed turned by 90°.
  { name: 'rotated.mov', kind: 'video', mime: 'video/quicktime', seconds: 3, args: lavfi('640x360', 3, true), rotate: 90 },
  { name: 'tiny.mp4', kind: 'video', mime: 'video/mp4', seconds: 3, args: lavfi('160x120', 3, true) },
  // What a browser's MediaRecorder makes: VP8 + Opus in WebM written live, so with no duration.
  {
    name: 'recorded.webm', kind: 'video', mime: 'video/webm', seconds: 2,
    args: [
      '-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=30:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=2',
      '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '1M', '-c:a', 'libopus', '-shortest', '-f', 'webm', '-live', '1',
    ],
  },
  { name: 'corrupt.mp4', kind: 'video', mime: 'video/mp4', bytes: randomBytes(64 * 1024) },
  { name: 'picture.png', kind: 'image', mime: 'image/png', args: ['-f', 'lavfi', '-i', 'testsrc2=size=2400x1200:duration=1', '-frames:v', '1'] },
];

interface Submitted {
  mediaId: string;
  timelineId: string;
  clip: Clip;
  enqueuedAt: number;
}

interface Snapshot {
  at: number;
  status: string;
  hlsMasterKey: string | null;
  renditions: number[];
}

// Generating the sources and processing them all takes ~30 s on a 2-core machine.
jest.setTimeout(120_000);

describe('media processing worker (real ffmpeg, Postgres, NATS)', () => {
  const prefix = testBusPrefix('mediaproc');
  const logger = createLogger('media-worker-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  let db: TestDatabase;
  let dataSource: DataSource;
  let bus: JetStreamEventBus;
  let queue: JetStreamWorkQueue;
  let storage: FsObjectStorage;
  let worker: RunningMediaWorker;
  let work: string;
  let health: Server;
  let realtime: Subscription;
  const messages: RealtimeMessage[] = [];
  /** Arrival time of each message, by index. */
  const arrivals: number[] = [];
  const submitted = new Map<string, Submitted>();
  const snapshots = new Map<string, Snapshot[]>();
  let polling = true;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'media-proc-test-'));
    db = await createTestDatabase('mediaproc', { schemas: [schema] });
    [dataSource, bus, queue] = await Promise.all([
      openDatabase({ url: db.url, schema: schema.name, entities: schema.entities, migrations: schema.migrations }),
      JetStreamEventBus.connect({ servers: testNatsUrl(), prefix, name: 'media-proc-test', logger }),
      JetStreamWorkQueue.connect({ servers: testNatsUrl(), prefix, name: 'media-proc-test', logger }),
    ]);
    storage = new FsObjectStorage({ root: join(work, 'storage') });
    await storage.init();
    realtime = await bus.subscribe(Realtime.allSubjects, (message) => {
      messages.push(Realtime.decode(message.data));
      arrivals.push(Date.now());
    });

    // Sources, two ffmpeg runs at a time.
    const pending = [...CLIPS];
    await Promise.all(
      [0, 1].map(async () => {
        for (let clip = pending.shift(); clip; clip = pending.shift()) {
          const file = join(work, clip.name);
          if (clip.bytes) await writeFile(file, clip.bytes);
          else if (!clip.rotate) await exec(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...clip.args!, file]);
          else {
            const upright = join(work, `upright-${clip.name}`);
            await exec(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...clip.args!, upright]);
            await exec(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-i', upright, '-c', 'copy', '-metadata:s:v:0', `rotate=${clip.rotate}`, file]);
          }
        }
      }),
    );

    worker = await startMediaWorker({
      dataSource,
      bus,
      storage,
      logger,
      queue,
      concurrency: 1,
      ffmpegPath: FFMPEG,
      ffprobePath: FFPROBE,
      jobPolicy: { maxDeliver: 2, backoffMs: [200], ackExtendMs: 2_000 },
      tempDir: work,
    });
    health = await listenHealth(worker, 0, '127.0.0.1');
    void poll();

    // Every source is queued now, in order; the worker takes them one at a time.
    for (const clip of CLIPS) {
      const mediaId = randomUUID();
      const timelineId = randomUUID();
      await storage.put(originalKey(mediaId), await readFile(join(work, clip.name)), { contentType: clip.mime });
      await dataSource.getRepository(Media).insert({
        id: mediaId,
        timelineId,
        uploaderId: randomUUID(),
        filename: originalKey(mediaId),
        originalName: clip.name,
        title: clip.name.replace(/\.[^.]+$/, ''),
        mediaType: clip.kind,
        fileSize: clip.bytes?.length ?? 0,
        mimeType: clip.mime,
        status: 'processing',
        uploadedAt: new Date(),
        queuedAt: new Date(),
      });
      snapshots.set(mediaId, []);
      submitted.set(clip.name, { mediaId, timelineId, clip, enqueuedAt: Date.now() });
      await queue.enqueue(
        MediaJobs.Process,
        { mediaId, timelineId, mediaType: clip.kind === 'image' ? MediaType.IMAGE : MediaType.VIDEO, originalKey: originalKey(mediaId), mimeType: clip.mime },
        { id: mediaId },
      );
    }
  });

  /** Records each media row's state over time, to see what the API could serve while processing ran. */
  async function poll(): Promise<void> {
    while (polling) {
      const rows: Array<Pick<Media, 'id' | 'status' | 'hlsMasterKey' | 'metadata'>> = await dataSource
        .query('SELECT id, status, hls_master_key AS "hlsMasterKey", metadata FROM media')
        .catch(() => []);
      for (const row of rows) {
        const list = snapshots.get(row.id);
        const last = list?.at(-1);
        const snapshot = { at: Date.now(), status: row.status, hlsMasterKey: row.hlsMasterKey, renditions: row.metadata?.renditions ?? [] };
        if (list && (!last || last.status !== snapshot.status || last.hlsMasterKey !== snapshot.hlsMasterKey || String(last.renditions) !== String(snapshot.renditions))) {
          list.push(snapshot);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  afterAll(async () => {
    polling = false;
    await worker?.close();
    await new Promise((resolve) => health?.close(resolve));
    await realtime?.unsubscribe();
    await queue?.close();
    await bus?.close();
    await dataSource?.destroy();
    await db?.drop();
    await deleteWorkStream(testNatsUrl(), prefix);
    await deleteBusStreams(testNatsUrl(), prefix);
    await rm(work, { recursive: true, force: true });
  });

  /**
   * Waits for the media to be done; `seconds` runs from the worker's first progress message to
   * its completion message (the job's own time, not its wait in the queue).
   */
  async function finished(name: string): Promise<{ media: Media; seconds: number; submittedAs: Submitted }> {
    const submittedAs = submitted.get(name)!;
    const id = submittedAs.mediaId;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const media = await dataSource.getRepository(Media).findOneByOrFail({ id });
      if (media.status === 'completed' || media.status === 'error') {
        const first = messages.findIndex((m) => m.type === 'video_processing_progress' && m.videoId === id);
        await waitUntil(() => media.status !== 'completed' || media.mediaType !== 'video' || messages.some((m) => m.type === 'video_processing_completed' && m.video.id === id));
        const last = messages.findIndex((m) => m.type === 'video_processing_completed' && m.video.id === id);
        const seconds = first >= 0 && last >= 0 ? (arrivals[last]! - arrivals[first]!) / 1000 : NaN;
        return { media, seconds, submittedAs };
      }
      if (Date.now() > deadline) throw new Error(`${name} still ${media.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Downloads the media's HLS tree and returns ffprobe's view of the master playlist. */
  async function probeHls(mediaId: string) {
    const dir = join(work, `hls-${mediaId}`);
    for await (const object of storage.list(processedKeys.hlsPrefix(mediaId))) {
      const file = join(dir, object.key.slice(processedKeys.hlsPrefix(mediaId).length));
      await mkdir(dirname(file), { recursive: true });
      await pipeline(await storage.get(object.key), createWriteStream(file));
    }
    const { stdout } = await exec(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', join(dir, 'master.m3u8')]);
    const master = await readFile(join(dir, 'master.m3u8'), 'utf8');
    const info = JSON.parse(stdout) as { streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>; format: { duration: string } };
    return { master, streams: info.streams, duration: Number(info.format.duration) };
  }

  async function probeObject(key: string) {
    const file = join(work, `obj-${randomUUID()}`);
    await pipeline(await storage.get(key), createWriteStream(file));
    const { stdout } = await exec(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_streams', file]);
    return (JSON.parse(stdout) as { streams: Array<{ codec_name: string; width: number; height: number }> }).streams[0]!;
  }

  const progressOf = (mediaId: string) =>
    messages.flatMap((m) => (m.type === 'video_processing_progress' && m.videoId === mediaId ? [m.progress] : []));

  async function outboxEvents(type: string, mediaId: string) {
    const rows: Array<{ payload: Buffer; dispatched_at: Date | null }> = await dataSource.query(
      'SELECT payload, dispatched_at FROM outbox WHERE type = $1 ORDER BY position',
      [type],
    );
    return rows.map((row) => ({ row, payload: row.payload })).filter(({ payload }) => payload.includes(Buffer.from(mediaId)));
  }

  const speed = (label: string, mediaSeconds: number, seconds: number) => {
    const ratio = mediaSeconds / seconds;
    console.log(`${label}: ${mediaSeconds.toFixed(1)} s of video processed in ${seconds.toFixed(2)} s = ${ratio.toFixed(2)}x realtime`);
  };

  it('720p with audio: ladder 144/360/720, thumbnail, progress, playable after the first rung, VideoProcessed', async () => {
    const { media, seconds, submittedAs } = await finished('hd720.mp4');
    expect(media.status).toBe('completed');
    expect(media.errorReason).toBeNull();
    expect(Math.abs(media.duration - 4)).toBeLessThanOrEqual(0.1);
    expect(media.metadata).toMatchObject({ width: 1280, height: 720, codec: 'h264', hasAudio: true, renditions: [144, 360, 720], createdAt: '2024-05-01T10:00:00.000Z' });
    expect(media.hlsMasterKey).toBe(`media/${media.id}/hls/master.m3u8`);
    expect(media.thumbnailKey).toBe(`media/${media.id}/thumbnail.jpg`);
    speed('720p source → 144p+360p+720p', media.duration, seconds);

    // Playable before it was complete: the master (with the lowest rung) was set while processing.
    const history = snapshots.get(media.id)!;
    const firstPlayable = history.find((s) => s.hlsMasterKey !== null);
    expect(firstPlayable).toMatchObject({ status: 'processing', renditions: [144] });

    const hls = await probeHls(media.id);
    expect(hls.streams.filter((s) => s.codec_type === 'video').map((s) => s.height)).toEqual([144, 360, 720]);
    expect(hls.streams.filter((s) => s.codec_type === 'audio').map((s) => s.codec_name)).toEqual(['aac', 'aac', 'aac']);
    expect(Math.abs(hls.duration - 4)).toBeLessThanOrEqual(0.2);
    expect(hls.master).toContain('RESOLUTION=256x144');
    expect(hls.master).toMatch(/CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"/);

    const thumbnail = await probeObject(media.thumbnailKey!);
    expect(thumbnail).toMatchObject({ codec_name: 'mjpeg', width: 160, height: 90 });
    const poster = await probeObject(processedKeys.poster(media.id));
    expect(poster).toMatchObject({ codec_name: 'mjpeg', width: 1280, height: 720 });

    // Progress: in order, stages in sequence, at most a few per second, ending at 100.
    const progress = progressOf(media.id);
    expect(progress.length).toBeGreaterThan(4);
    const percents = progress.map((p) => p.progress);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(percents.at(-1)).toBe(100);
    const stages = [...new Set(progress.map((p) => p.stage))];
    expect(stages).toEqual(['probing', 'thumbnail', 'transcoding', 'finalizing']);
    expect(progress.map((p) => p.message)).toEqual(expect.arrayContaining(['Transcoding 144p (1 of 3)', 'Transcoding 360p, 720p (2–3 of 3)']));
    const completed = messages.filter((m) => m.type === 'video_processing_completed' && m.video.id === media.id);
    expect(completed).toEqual([{ type: 'video_processing_completed', timelineId: submittedAs.timelineId, video: { id: media.id } }]);
    expect(messages.findIndex((m) => m === completed[0])).toBeGreaterThan(
      messages.findIndex((m) => m.type === 'video_processing_progress' && m.videoId === media.id && m.progress.progress === 100),
    );

    const events = await outboxEvents(MediaEvents.VideoProcessed.type, media.id);
    expect(events).toHaveLength(1);
    const event = fromBinary(MediaEvents.VideoProcessed.schema, events[0]!.payload);
    expect(event).toMatchObject({ mediaId: media.id, timelineId: submittedAs.timelineId, width: 1280, height: 720, renditions: [144, 360, 720] });
    expect(event.recordedAt?.seconds).toBe(BigInt(Date.parse('2024-05-01T10:00:00Z') / 1000));
  });

  it('1080p: the full ladder 144/360/720/1080', async () => {
    const { media, seconds } = await finished('hd1080.mp4');
    expect(media.status).toBe('completed');
    expect(media.metadata.renditions).toEqual([144, 360, 720, 1080]);
    expect(Math.abs(media.duration - 4)).toBeLessThanOrEqual(0.1);
    const hls = await probeHls(media.id);
    expect(hls.streams.filter((s) => s.codec_type === 'video').map((s) => `${s.width}x${s.height}`)).toEqual(['256x144', '640x360', '1280x720', '1920x1080']);
    speed('1080p source → 144p+360p+720p+1080p', media.duration, seconds);
  });

  it('portrait 720x1280: rungs chosen by the short side (144x256, 360x640, 720x1280)', async () => {
    const { media } = await finished('portrait.mp4');
    expect(media.status).toBe('completed');
    expect(media.metadata).toMatchObject({ width: 720, height: 1280, renditions: [144, 360, 720] });
    const hls = await probeHls(media.id);
    expect(hls.streams.filter((s) => s.codec_type === 'video').map((s) => `${s.width}x${s.height}`)).toEqual(['144x256', '360x640', '720x1280']);
    const thumbnail = await probeObject(media.thumbnailKey!);
    expect(thumbnail).toMatchObject({ width: 160, height: 90 });
  });

  it('a rotated phone video is laid out by its display size', async () => {
    const { media } = await finished('rotated.mov');
    expect(media.status).toBe('completed');
    expect(media.metadata).toMatchObject({ width: 360, height: 640, renditions: [144, 360] });
    const hls = await probeHls(media.id);
    expect(hls.streams.filter((s) => s.codec_type === 'video').map((s) => `${s.width}x${s.height}`)).toEqual(['144x256', '360x640']);
  });

  it('a video without sound gets renditions without an audio track', async () => {
    const { media } = await finished('silent.mp4');
    expect(media.status).toBe('completed');
    expect(media.metadata).toMatchObject({ hasAudio: false, renditions: [144, 360] });
    const hls = await probeHls(media.id);
    expect(hls.streams.filter((s) => s.codec_type === 'audio')).toEqual([]);
    expect(hls.master).toMatch(/CODECS="avc1\.[0-9a-f]{6}"/);
  });

  it('a source below 144p gets one rendition at its own size', async () => {
    const { media } = await finished('tiny.mp4');
    expect(media.status).toBe('completed');
    expect(media.metadata.renditions).toEqual([120]);
    const hls = await probeHls(media.id);
    expect(hls.streams.filter((s) => s.codec_type === 'video').map((s) => `${s.width}x${s.height}`)).toEqual(['160x120']);
  });

  it('a browser recording without a duration in its header: the duration is read off its packets', async () => {
    const { media } = await finished('recorded.webm');
    expect(media.status).toBe('completed');
    expect(media.duration).toBeGreaterThan(1.8);
    expect(media.duration).toBeLessThan(2.2);
    expect(media.metadata).toMatchObject({ width: 640, height: 480, hasAudio: true, renditions: [144, 360] });
  });

  it('a corrupt file: error with a readable reason, VideoFailed, video_processing_error, no retries', async () => {
    const { media, submittedAs } = await finished('corrupt.mp4');
    expect(media.status).toBe('error');
    expect(media.errorReason).toBe('The file could not be read as a video');
    expect(media.hlsMasterKey).toBeNull();
    const events = await outboxEvents(MediaEvents.VideoFailed.type, media.id);
    expect(events).toHaveLength(1);
    expect(fromBinary(MediaEvents.VideoFailed.schema, events[0]!.payload)).toMatchObject({
      mediaId: media.id,
      timelineId: submittedAs.timelineId,
      reason: 'The file could not be read as a video',
    });
    await waitUntil(() => messages.some((m) => m.type === 'video_processing_error' && m.videoId === media.id));
    expect(messages.filter((m) => m.type === 'video_processing_error' && m.videoId === media.id)).toEqual([
      { type: 'video_processing_error', timelineId: submittedAs.timelineId, videoId: media.id, error: 'The file could not be read as a video' },
    ]);
    expect(await queue.isPending(MediaJobs.Process, media.id)).toBe(false);
  });

  it('an image: web-size rendition, thumbnail, ImageProcessed, media_processing_completed', async () => {
    const { media, submittedAs } = await finished('picture.png');
    expect(media.status).toBe('completed');
    expect(media.metadata).toMatchObject({ width: 2400, height: 1200 });
    expect(await probeObject(processedKeys.webImage(media.id))).toMatchObject({ codec_name: 'mjpeg', width: 1920, height: 960 });
    expect(await probeObject(media.thumbnailKey!)).toMatchObject({ codec_name: 'mjpeg', width: 160, height: 90 });
    const events = await outboxEvents(MediaEvents.ImageProcessed.type, media.id);
    expect(fromBinary(MediaEvents.ImageProcessed.schema, events[0]!.payload)).toMatchObject({ mediaId: media.id, width: 2400, height: 1200 });
    await waitUntil(() => messages.some((m) => m.type === 'media_processing_completed' && m.mediaId === media.id));
    expect(messages.find((m) => m.type === 'media_processing_completed' && m.mediaId === media.id)).toEqual({
      type: 'media_processing_completed',
      timelineId: submittedAs.timelineId,
      mediaId: media.id,
      mediaType: 'image',
    });
  });

  it('publishes the events through the outbox and serves health and metrics', async () => {
    await waitUntil(async () => {
      const [row] = (await dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE dispatched_at IS NULL')) as Array<{ n: number }>;
      return row!.n === 0;
    });
    const base = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'up', bus: 'up', workQueue: 'up', storage: 'up', ffmpeg: 'up' } });
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const videos = CLIPS.filter((c) => c.kind === 'video' && !c.bytes).length;
    expect(metrics).toMatch(new RegExp(`media_jobs_processed_total\\{media_type="video"\\} ${videos}\n`));
    expect(metrics).toMatch(/media_jobs_failed_total\{media_type="video"\} 1/);
    expect(metrics).toContain('media_job_duration_seconds_bucket');
    // Nothing left behind in the worker's temporary directory.
    const leftovers = (await exec('ls', [work])).stdout.split('\n').filter((f) => f.startsWith('media-'));
    expect(leftovers).toEqual([]);
  });

  it('re-queues media left in processing whose job was lost, and skips finished media', async () => {
    const { mediaId, timelineId } = submitted.get('silent.mp4')!;
    // As if the job had vanished with an in-memory queue: the row is back in `processing`.
    await dataSource.getRepository(Media).update({ id: mediaId }, { status: 'processing' });
    expect(await worker.requeueStuck()).toBe(1);
    const { media } = await finished('silent.mp4');
    expect(media.status).toBe('completed');
    expect(media.metadata.renditions).toEqual([144, 360]);
    expect(await worker.requeueStuck()).toBe(0);
    // A duplicate of a finished job is acknowledged without work.
    const before = progressOf(mediaId).length;
    await queue.enqueue(MediaJobs.Process, { mediaId, timelineId, mediaType: MediaType.VIDEO, originalKey: originalKey(mediaId), mimeType: 'video/mp4' }, { id: `again-${mediaId}` });
    await waitUntil(async () => !(await queue.isPending(MediaJobs.Process, `again-${mediaId}`)));
    expect(progressOf(mediaId).length).toBe(before);
  });
});

async function waitUntil(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
