import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createLogger, InProcessWorkQueue, type Subscription } from '@timeliner/platform';
import { type ExportProgress, Realtime } from '@timeliner/proto';
import { type RunningMediaWorker, startMediaWorker } from '../src/worker-runtime.js';
import { type MediaHarness, startHarness, waitFor } from './harness.js';

const exec = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH || '/usr/bin/ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || '/usr/bin/ffprobe';

jest.setTimeout(120_000);

/**
 * The person who asked for an export hears how far it has come over /ws (`export_progress` on
 * their user topic, which only they may watch), from its start to the end, so the player can show
 * progress instead of a greyed button; and a failed export says so the same way.
 */
describe('export progress (real ffmpeg, Postgres)', () => {
  let h: MediaHarness;
  let queue: InProcessWorkQueue;
  let worker: RunningMediaWorker;
  let work: string;
  let heard: Subscription;
  const messages: ExportProgress[] = [];

  const addVideo = async (timelineId: string, position: number, seconds: number): Promise<string> => {
    const id = randomUUID();
    const file = join(work, `${id}.mp4`);
    await exec(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    await h.storage.put(`media/${id}/original`, await readFile(file));
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, 'clip.mp4', 'clip', 'video', $5, 1000, 'video/mp4', 'completed', $6, now())`,
      [id, timelineId, h.world.owner, `media/${id}/original`, seconds, position],
    );
    return id;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'media-export-progress-'));
    queue = new InProcessWorkQueue({});
    h = await startHarness('mediaexportprogress', { workQueue: queue, exportWaitMs: 90_000 });
    worker = await startMediaWorker({
      dataSource: h.service.dataSource, bus: h.bus, storage: h.storage, logger: createLogger('media-export-progress', process.env.TEST_LOG_LEVEL ?? 'silent'),
      queue, ffmpegPath: FFMPEG, ffprobePath: FFPROBE, requeueOnStart: false, tempDir: work,
    });
    heard = await h.bus.subscribe(Realtime.userSubject(h.world.viewer), (message) => {
      const decoded = Realtime.decode(message.data);
      if (decoded.type === 'export_progress') messages.push(decoded);
    });
  });
  afterAll(async () => {
    await heard?.unsubscribe();
    await worker?.close();
    await h?.close();
    await queue?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('tells the requester how far the export is, from 0 to 100 and completed', async () => {
    await addVideo(h.world.privateTimeline, 0, 4);
    await addVideo(h.world.privateTimeline, 1, 4);
    const res = await h.call('post', `/api/timelines/${h.world.privateTimeline}/export`, h.as('viewer')).send({ options: { title: 'Progress' } });
    expect(res.status).toBe(200);
    const { exportId } = res.body as { exportId: string };
    await waitFor(() => messages.some((m) => m.status === 'completed'));
    const mine = messages.filter((m) => m.exportId === exportId);
    expect(mine.every((m) => m.timeline === h.world.privateTimeline)).toBe(true);
    expect(mine[0]).toEqual({ type: 'export_progress', exportId, timeline: h.world.privateTimeline, status: 'processing', progress: 0 });
    expect(mine.at(-1)).toEqual({ type: 'export_progress', exportId, timeline: h.world.privateTimeline, status: 'completed', progress: 100 });
    const percentages = mine.map((m) => m.progress);
    expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
    // Steps between, from the encoding itself: not only a start and an end.
    expect(mine.filter((m) => m.status === 'processing' && m.progress > 10 && m.progress < 100).length).toBeGreaterThan(0);
  });

  it('tells the requester when an export failed', async () => {
    const broken = randomUUID();
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, 'gone.mp4', 'gone', 'video', 2, 1000, 'video/mp4', 'completed', 9, now())`,
      [broken, h.world.privateTimeline, h.world.owner, `media/${broken}/original`],
    );
    const res = await h.call('post', `/api/timelines/${h.world.privateTimeline}/export`, h.as('viewer')).send({ options: { title: 'Broken' } });
    expect(res.status).toBe(500);
    const [row] = await h.query<{ id: string }>(`SELECT id FROM exports WHERE file_name = 'Broken.mp4'`);
    await waitFor(() => messages.some((m) => m.exportId === row!.id && m.status === 'error'));
  });
});
