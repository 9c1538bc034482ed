import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as tus from 'tus-js-client';
import { createLogger, InProcessWorkQueue, type Subscription } from '@timeliner/platform';
import { Realtime, type RealtimeMessage } from '@timeliner/proto';
import { type RunningMediaWorker, startMediaWorker } from '../src/worker-runtime.js';
import { type MediaHarness, startHarness, waitFor } from './harness.js';

const exec = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH || '/usr/bin/ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || '/usr/bin/ffprobe';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

jest.setTimeout(120_000);

/** The media id a realtime message is about, whichever of its spellings it uses. */
const subjectOf = (message: RealtimeMessage): string | undefined => {
  const m = message as { videoId?: string; mediaId?: string; video?: { id?: string } };
  return m.videoId ?? m.mediaId ?? m.video?.id;
};

/**
 * The tus creation tells the client which media item its upload becomes (`Upload-Media-Id`), so a
 * client matches the `/ws` messages about processing to its upload by id. Two uploads of files
 * with the same name into one timeline at once (what matching by name could not tell apart) each
 * get their own id, and every processing message about each carries that id.
 */
describe('Upload-Media-Id (real ffmpeg worker, Postgres)', () => {
  let h: MediaHarness;
  let queue: InProcessWorkQueue;
  let worker: RunningMediaWorker;
  let work: string;
  let heard: Subscription;
  const messages: RealtimeMessage[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'media-upload-id-'));
    queue = new InProcessWorkQueue({});
    h = await startHarness('mediauploadid', { processingQueue: queue });
    worker = await startMediaWorker({
      dataSource: h.service.dataSource, bus: h.bus, storage: h.storage, logger: createLogger('media-upload-id', process.env.TEST_LOG_LEVEL ?? 'silent'),
      queue, ffmpegPath: FFMPEG, ffprobePath: FFPROBE, requeueOnStart: false, tempDir: work,
    });
    heard = await h.bus.subscribe(Realtime.timelineSubject(h.world.privateTimeline), (message) => void messages.push(Realtime.decode(message.data)));
  });
  afterAll(async () => {
    await heard?.unsubscribe();
    await worker?.close();
    await h?.close();
    await queue?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const clip = async (name: string, seconds: number): Promise<Buffer> => {
    const file = join(work, name);
    await exec(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=25:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    return readFile(file);
  };

  /** Uploads with tus-js-client as the web app does; answers the id the creation named and the session's URL. */
  const upload = (data: Buffer, filename: string): Promise<{ mediaId: string; url: string }> =>
    new Promise((resolve, reject) => {
      let mediaId: string | undefined;
      const editor = h.as('editor');
      const task = new tus.Upload(data, {
        endpoint: `${h.service.url}/api/uploads`,
        chunkSize: 8 * 1024 * 1024,
        retryDelays: [],
        metadata: { timelineId: h.world.privateTimeline, filename, filetype: 'video/mp4' },
        onBeforeRequest(req) {
          const url = new URL(req.getURL());
          for (const [k, v] of Object.entries(h.sign(req.getMethod(), url.pathname, editor))) req.setHeader(k, v);
        },
        onAfterResponse(req, res) {
          if (req.getMethod() === 'POST') mediaId = res.getHeader('Upload-Media-Id');
        },
        onSuccess: () => (mediaId ? resolve({ mediaId, url: task.url! }) : reject(new Error('the creation named no media id'))),
        onError: reject,
      });
      task.start();
    });

  it('names the media on creation, and processing messages carry that id', async () => {
    const [short, long] = await Promise.all([clip('short.mp4', 1), clip('long.mp4', 3)]);
    const [a, b] = await Promise.all([upload(short, 'Same name.mp4'), upload(long, 'Same name.mp4')]);
    expect(a.mediaId).toMatch(UUID);
    expect(b.mediaId).toMatch(UUID);
    expect(a.mediaId).not.toBe(b.mediaId);

    // A client resuming after a reload asks HEAD: the same id.
    const head = await h.call('head', new URL(a.url).pathname, h.as('editor')).set('tus-resumable', '1.0.0').expect(200);
    expect(head.headers['upload-media-id']).toBe(a.mediaId);

    // Each id is the media item made of that upload's bytes.
    const rows = await h.query<{ id: string; original_name: string; file_size: string }>('SELECT id, original_name, file_size FROM media WHERE timeline_id = $1 ORDER BY file_size', [h.world.privateTimeline]);
    expect(rows).toEqual([
      { id: a.mediaId, original_name: 'Same name.mp4', file_size: String(short.length) },
      { id: b.mediaId, original_name: 'Same name.mp4', file_size: String(long.length) },
    ]);

    const completed = (id: string) => messages.some((m) => m.type === 'video_processing_completed' && subjectOf(m) === id);
    await waitFor(() => completed(a.mediaId) && completed(b.mediaId), 90_000);
    const [durationA, durationB] = await Promise.all([a, b].map(async ({ mediaId }) => {
      const [row] = await h.query<{ duration: number; status: string }>('SELECT duration, status FROM media WHERE id = $1', [mediaId]);
      expect(row!.status).toBe('completed');
      return row!.duration;
    }));
    expect(durationA).toBeCloseTo(1, 0);
    expect(durationB).toBeCloseTo(3, 0);

    // Every message about these uploads names one of the two ids; each id had the whole sequence.
    for (const { mediaId } of [a, b]) {
      const about = messages.filter((m) => subjectOf(m) === mediaId).map((m) => m.type);
      expect(about).toContain('video_upload_started');
      expect(about).toContain('video_processing_progress');
      expect(about).toContain('video_processing_completed');
    }
    expect(messages.every((m) => [a.mediaId, b.mediaId].includes(subjectOf(m)!))).toBe(true);
  });
});
