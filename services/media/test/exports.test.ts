import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createLogger, InProcessWorkQueue } from '@timeliner/platform';
import { exportFileName } from '../src/exports/exports.dto.js';
import { concatArguments, outputSize } from '../src/processing/export-processor.js';
import { type RunningMediaWorker, startMediaWorker } from '../src/worker-runtime.js';
import { MediaEvents, TimelinesEvents } from '@timeliner/proto';
import { binary, type MediaHarness, startHarness, waitFor } from './harness.js';

const exec = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH || '/usr/bin/ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || '/usr/bin/ffprobe';

jest.setTimeout(120_000);

interface Probed {
  format: { duration: string };
  streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>;
}

const probeFile = async (file: string): Promise<Probed> =>
  JSON.parse((await exec(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file])).stdout) as Probed;

describe('timeline export (real ffmpeg, Postgres)', () => {
  let h: MediaHarness;
  let queue: InProcessWorkQueue;
  let worker: RunningMediaWorker;
  let work: string;
  let workerTemp: string;

  /** A completed video of `timelineId` whose original is a generated clip. */
  const addVideo = async (timelineId: string, position: number, size: string, seconds: number, audio: boolean): Promise<string> => {
    const id = randomUUID();
    const file = join(work, `${id}.mp4`);
    await exec(FFMPEG, [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=${seconds}`,
      ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`] : []),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
      ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
      file,
    ]);
    await h.storage.put(`media/${id}/original`, await readFile(file));
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, duration, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, 'clip.mp4', 'clip', 'video', $5, 1000, 'video/mp4', 'completed', $6, now())`,
      [id, timelineId, h.world.owner, `media/${id}/original`, seconds, position],
    );
    return id;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'media-export-test-'));
    workerTemp = await mkdtemp(join(tmpdir(), 'media-export-worker-'));
    queue = new InProcessWorkQueue({});
    h = await startHarness('mediaexport', { workQueue: queue, exportWaitMs: 90_000 });
    worker = await startMediaWorker({
      dataSource: h.service.dataSource, bus: h.bus, storage: h.storage, logger: createLogger('media-export-test', process.env.TEST_LOG_LEVEL ?? 'silent'),
      queue, ffmpegPath: FFMPEG, ffprobePath: FFPROBE, requeueOnStart: false, tempDir: workerTemp,
    });
    // The private timeline: a larger clip with sound, then a smaller silent one; an image between is left out.
    await addVideo(h.world.privateTimeline, 0, '640x360', 2, true);
    await addVideo(h.world.privateTimeline, 2, '320x240', 1.5, false);
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, 'media/x/original', 'i.png', 'i', 'image', 10, 'image/png', 'completed', 1, now())`,
      [randomUUID(), h.world.privateTimeline, h.world.owner],
    );
  });
  afterAll(async () => {
    await worker?.close();
    await h?.close();
    await queue?.close();
    await rm(work, { recursive: true, force: true });
    await rm(workerTemp, { recursive: true, force: true });
  });

  it('concatenates the videos into one H.264/AAC MP4 served as an attachment', async () => {
    const res = await h.call('post', `/api/timelines/${h.world.privateTimeline}/export`, h.as('viewer'))
      .send({ options: { quality: '1080p', title: '  My trip: día 1!  ' } });
    expect(res.status).toBe(200);
    const { downloadUrl, fileName, exportId } = res.body as { downloadUrl: string; fileName: string; exportId: string };
    expect(fileName).toBe('My_trip__d_a_1_.mp4');
    expect(downloadUrl).toMatch(new RegExp(`^/api/exports/${exportId}/file\\?access=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));

    // The signed URL opens the file without an identity.
    const file = await h.call('get', downloadUrl, {}).buffer(true).parse(binary).expect(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.headers['content-disposition']).toContain("attachment;");
    expect(file.headers['content-disposition']).toContain("filename*=UTF-8''My_trip__d_a_1_.mp4");
    const out = join(work, 'export.mp4');
    await writeFile(out, file.body as Buffer);
    const probed = await probeFile(out);
    expect(Math.abs(Number(probed.format.duration) - 3.5)).toBeLessThan(0.35);
    const video = probed.streams.filter((s) => s.codec_type === 'video');
    const audio = probed.streams.filter((s) => s.codec_type === 'audio');
    expect(video).toHaveLength(1);
    expect(audio).toHaveLength(1);
    expect(video[0]).toEqual(expect.objectContaining({ codec_name: 'h264', width: 640, height: 360 }));
    expect(audio[0]!.codec_name).toBe('aac');

    const [row] = await h.query<{ status: string; object_key: string; requested_by: string; completed_at: Date | null }>('SELECT * FROM exports WHERE id = $1', [exportId]);
    expect(row).toEqual(expect.objectContaining({ status: 'completed', object_key: `exports/${exportId}/My_trip__d_a_1_.mp4`, requested_by: h.world.viewer }));
    expect(row!.completed_at).not.toBeNull();
    expect(await readdir(workerTemp)).toEqual([]);
    // The requester is told (the notifications service listens for it).
    expect(await h.query('SELECT actor_user_id FROM outbox WHERE type = $1', ['media.export.completed'])).toEqual([{ actor_user_id: h.world.viewer }]);

    // A token for the export opens nothing else, and a tampered one has expired.
    await h.call('get', `${downloadUrl}x`, {}).expect(401);
    await h.call('get', `/api/exports/${exportId}/file`, h.as('stranger')).expect(404);
    await h.call('get', `/api/exports/${exportId}/file`, h.as('editor')).expect(200);
  });

  it('needs a signed-in caller who may view the timeline', async () => {
    const path = `/api/timelines/${h.world.privateTimeline}/export`;
    const anonymous = await h.call('post', path, {}).send({});
    expect(anonymous.status).toBe(401);
    const stranger = await h.call('post', path, h.as('stranger')).send({});
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Timeline not found');
    await h.call('post', `/api/timelines/${h.world.publicTimeline}/export`, {}).send({}).expect(401);
  });

  it('tells where an export stands to whoever may view its timeline, with the download URL once done', async () => {
    const exportRow = async (status: string, extra: { objectKey?: string; error?: string } = {}) => {
      const id = randomUUID();
      await h.query(
        `INSERT INTO exports (id, timeline_id, requested_by, status, object_key, file_name, error) VALUES ($1, $2, $3, $4, $5, 'Trip.mp4', $6)`,
        [id, h.world.privateTimeline, h.world.viewer, status, extra.objectKey ?? null, extra.error ?? null],
      );
      return id;
    };
    const processing = await exportRow('processing');
    expect((await h.call('get', `/api/exports/${processing}`, h.as('viewer')).expect(200)).body).toEqual({ exportId: processing, status: 'processing', fileName: 'Trip.mp4' });

    const failed = await exportRow('error', { error: 'The video clip.mp4 could not be read' });
    expect((await h.call('get', `/api/exports/${failed}`, h.as('owner')).expect(200)).body).toEqual({
      exportId: failed, status: 'error', fileName: 'Trip.mp4', error: 'The video clip.mp4 could not be read',
    });

    const made = await h.call('post', `/api/timelines/${h.world.privateTimeline}/export`, h.as('editor')).send({ options: { title: 'Trip' } }).expect(200);
    const done = await h.call('get', `/api/exports/${made.body.exportId}`, h.as('editor')).expect(200);
    expect(done.body).toMatchObject({ exportId: made.body.exportId, status: 'completed', fileName: 'Trip.mp4' });
    await h.call('get', done.body.downloadUrl, {}).expect(200);

    // Not visible: the same answers as for an export that does not exist.
    expect((await h.call('get', `/api/exports/${processing}`, h.as('stranger')).expect(404)).body.message).toBe('Export not found');
    expect((await h.call('get', `/api/exports/${randomUUID()}`, h.as('stranger')).expect(404)).body.message).toBe('Export not found');
    await h.call('get', `/api/exports/not-an-id`, h.as('viewer')).expect(404);
    await h.call('get', `/api/exports/${processing}`, {}).expect(401);
  });

  it('tells the timelines service of every download from the first byte (ExportDownloaded), not of HEADs, later ranges or revalidations', async () => {
    const id = randomUUID();
    const key = `exports/${id}/Counted.mp4`;
    await h.storage.put(key, Buffer.alloc(4096, 7));
    await h.query(
      `INSERT INTO exports (id, timeline_id, requested_by, status, object_key, file_name, completed_at) VALUES ($1, $2, $3, 'completed', $4, 'Counted.mp4', now())`,
      [id, h.world.privateTimeline, h.world.viewer, key],
    );
    const downloads = async () => (await h.events(MediaEvents.ExportDownloaded)).filter((e) => e.exportId === id);
    const file = `/api/exports/${id}/file`;
    const { downloadUrl } = (await h.call('get', `/api/exports/${id}`, h.as('viewer')).expect(200)).body as { downloadUrl: string };

    // The signed link opened without an identity, the file asked for with one, a download manager's range from 0.
    await h.call('get', downloadUrl, {}).expect(200);
    await h.call('get', file, h.as('owner')).expect(200);
    await h.call('get', file, h.as('editor')).set('range', 'bytes=0-').expect(206);
    // Not downloads: a HEAD, the rest of a download going on, a probe of the first bytes, a revalidation, a stranger.
    await h.call('head', file, h.as('owner')).expect(200);
    await h.call('get', file, h.as('owner')).set('range', 'bytes=1024-').expect(206);
    await h.call('get', file, h.as('owner')).set('range', 'bytes=0-1').expect(206);
    const etag = (await h.call('head', file, h.as('owner'))).headers.etag as string | undefined;
    if (etag) await h.call('get', file, h.as('owner')).set('if-none-match', etag).expect(304);
    await h.call('get', file, h.as('stranger')).expect(404);

    const told = await downloads();
    expect(told.map((e) => ({ timelineId: e.timelineId, viewer: e.viewerKey.slice(0, 2) }))).toEqual([
      { timelineId: h.world.privateTimeline, viewer: 'a:' },
      { timelineId: h.world.privateTimeline, viewer: 'u:' },
      { timelineId: h.world.privateTimeline, viewer: 'u:' },
    ]);
    expect(told.map((e) => e.viewerKey).slice(1)).toEqual([`u:${h.world.owner}`, `u:${h.world.editor}`]);
    // No address in the clear.
    expect(told[0]!.viewerKey).not.toContain('.');
  });

  it('hands out the same export again for the same videos, size and name instead of making another', async () => {
    const path = `/api/timelines/${h.world.privateTimeline}/export`;
    const first = await h.call('post', path, h.as('owner')).send({ options: { title: 'Again' } }).expect(200);
    const second = await h.call('post', path, h.as('viewer')).send({ options: { title: 'Again' } }).expect(200);
    expect(second.body.exportId).toBe(first.body.exportId);
    await h.call('get', second.body.downloadUrl, {}).expect(200);
    // Another size is another file.
    const smaller = await h.call('post', path, h.as('owner')).send({ options: { title: 'Again', quality: '720p' } }).expect(200);
    expect(smaller.body.exportId).not.toBe(first.body.exportId);
  });

  it('limits exports in progress per person and per timeline with 429', async () => {
    const running = (requestedBy: string, timelineId = h.world.publicTimeline) =>
      h.query(`INSERT INTO exports (id, timeline_id, requested_by, status, file_name, content_key) VALUES ($1, $2, $3, 'processing', 'Busy.mp4', 'busy')`, [randomUUID(), timelineId, requestedBy]);
    await addVideo(h.world.publicTimeline, 0, '320x240', 1, false);
    const stranger = h.as('stranger');
    const someone = stranger.userId!;
    await running(someone, h.world.privateTimeline);
    await running(someone, h.world.privateTimeline);
    const before = await h.query('SELECT id FROM exports');
    const refused = await h.call('post', `/api/timelines/${h.world.publicTimeline}/export`, stranger).send({ options: { title: 'One more' } });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('You have 2 exports in progress; wait for one to finish');
    expect(await h.query('SELECT id FROM exports')).toHaveLength(before.length);

    await running(randomUUID());
    await running(randomUUID());
    await running(randomUUID());
    const busy = await h.call('post', `/api/timelines/${h.world.publicTimeline}/export`, h.as('owner')).send({ options: { title: 'Owner' } });
    expect(busy.status).toBe(429);
    expect(busy.body.message).toBe('This timeline is being exported already; try again when that export has finished');
    await h.query("UPDATE exports SET status = 'error' WHERE content_key = 'busy'");
  });

  it('deletes exports after a day, and with their timeline, so a download link then opens nothing', async () => {
    const made = await h.call('post', `/api/timelines/${h.world.publicTimeline}/export`, h.as('owner')).send({ options: { title: 'Doomed' } }).expect(200);
    const { exportId, downloadUrl } = made.body as { exportId: string; downloadUrl: string };
    await h.call('get', downloadUrl, {}).expect(200);
    const [row] = await h.query<{ object_key: string }>('SELECT object_key FROM exports WHERE id = $1', [exportId]);
    await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: h.world.publicTimeline, creatorId: h.world.owner });
    await waitFor(async () => (await h.query('SELECT id FROM exports WHERE id = $1', [exportId])).length === 0);
    expect(await h.storage.stat(row!.object_key)).toBeNull();
    expect((await h.call('get', downloadUrl, {})).status).toBeGreaterThanOrEqual(400);

    const old = await h.call('post', `/api/timelines/${h.world.privateTimeline}/export`, h.as('owner')).send({ options: { title: 'Old' } }).expect(200);
    const [oldRow] = await h.query<{ object_key: string }>('SELECT object_key FROM exports WHERE id = $1', [old.body.exportId]);
    await h.service.sweep(new Date(Date.now() + 23 * 3_600_000));
    expect(await h.query('SELECT id FROM exports WHERE id = $1', [old.body.exportId])).toHaveLength(1);
    await h.service.sweep(new Date(Date.now() + 25 * 3_600_000));
    expect(await h.query('SELECT id FROM exports WHERE id = $1', [old.body.exportId])).toHaveLength(0);
    expect(await h.storage.stat(oldRow!.object_key)).toBeNull();
    expect((await h.call('get', old.body.downloadUrl, {})).status).toBeGreaterThanOrEqual(400);
  });

  it('a timeline without completed videos: 400 No videos to export', async () => {
    const res = await h.call('post', `/api/timelines/${h.world.publicTimeline}/export`, h.as('stranger')).send({});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('No videos to export');
    expect(await h.query('SELECT id FROM exports WHERE timeline_id = $1', [h.world.publicTimeline])).toEqual([]);
  });

  it('names the file from the title: non-alphanumerics as underscores, .mp4', () => {
    expect(exportFileName('Summer 2024 — Rome/Paris')).toBe('Summer_2024___Rome_Paris.mp4');
    expect(exportFileName('  ')).toBe('timeline.mp4');
    expect(exportFileName(undefined)).toBe('timeline.mp4');
    expect(exportFileName('a🎉b')).toBe('a_b.mp4');
  });

  it('builds the ffmpeg arguments as an array: common size capped, silent audio where missing', () => {
    const inputs = [
      { file: '/t/a', width: 3840, height: 2160, hasAudio: true, duration: 2 },
      { file: '/t/b; rm -rf /', width: 640, height: 480, hasAudio: false, duration: 1.5 },
    ];
    expect(outputSize(inputs, 1080)).toEqual({ width: 1920, height: 1080 });
    expect(outputSize(inputs, 720)).toEqual({ width: 1280, height: 720 });
    const args = concatArguments(inputs, '/t/out.mp4', { width: 1920, height: 1080 });
    expect(args).toContain('/t/b; rm -rf /');
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    expect(graph).toContain('anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=1.500[a1]');
    expect(graph).toContain('setsar=1');
    expect(graph).toContain('[v0][a0][v1][a1]concat=n=2:v=1:a=1[v][a]');
    expect(args.slice(-3)).toEqual(['-movflags', '+faststart', '/t/out.mp4']);
  });
});
