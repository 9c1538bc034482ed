import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { MediaEvents, MediaType, TimelinesEvents } from '@timeliner/proto';
import { binary, type MediaHarness, mp4Bytes, PNG_HEADER, startHarness, waitFor } from './harness.js';

/** A media URL as the API answers it: signed with an access token (see media-urls.ts). */
const signedUrl = (path: string) => new RegExp(`^${path.replace(/[.?]/g, '\\$&')}\\?access=[A-Za-z0-9_-]+\\.(?:[A-Za-z0-9_-]*\\.)?[A-Za-z0-9_-]{43}$`);
const bytesOf = (res: { body: unknown; text?: string }): Buffer => (Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.text ?? ''));

describe('media: simple uploads, lists, order, titles, deletion, streaming', () => {
  let h: MediaHarness;
  const video = mp4Bytes(3 * 1024 * 1024 + 123, 3);
  let videoId: string;

  const upload = (field: 'video' | 'media', data: Buffer, filename: string, contentType: string, timeline = h.world.privateTimeline, who: Parameters<MediaHarness['as']>[0] = 'editor') =>
    h.call('post', `/api/timelines/${timeline}/${field === 'video' ? 'videos' : 'media'}`, h.as(who)).attach(field, data, { filename, contentType });

  beforeAll(async () => {
    h = await startHarness('mediaroutes');
  });
  afterAll(async () => {
    await h.close();
  });

  it('POST /videos streams the file to storage and answers the video', async () => {
    const res = await upload('video', video, 'Beach day.mp4', 'video/mp4').expect(201);
    videoId = res.body.id;
    expect(res.body).toMatchObject({
      title: 'Beach day', originalName: 'Beach day.mp4', status: 'processing', mediaType: 'video', position: 0, duration: 0, fileSize: video.length,
      metadata: { width: null, height: null, createdAt: null }, thumbnailUrl: null, cloudThumbnailUrl: null, hlsUrl: null, streamUrl: expect.stringMatching(signedUrl(`/api/videos/${videoId}/stream`)),
    });
    expect(Date.parse(res.body.uploadedAt)).not.toBeNaN();
    const stored = await h.storage.stat(`media/${videoId}/original`);
    expect(stored?.size).toBe(video.length);
    expect(h.jobs.jobs.at(-1)).toMatchObject({ mediaId: videoId, mediaType: MediaType.VIDEO, originalKey: `media/${videoId}/original` });
    expect((await h.events(MediaEvents.UploadCompleted)).at(-1)).toMatchObject({ mediaId: videoId, size: BigInt(video.length) });
  });

  it('POST /media takes images; the list holds both kinds in spec 000 shape', async () => {
    const png = Buffer.concat([PNG_HEADER, Buffer.alloc(2000, 1)]);
    const res = await upload('media', png, 'photo.png', 'image/png').expect(201);
    expect(res.body).toMatchObject({ type: 'image', status: 'processing', originalName: 'photo.png', cloudVideoUrl: null, cloudUrl: expect.stringMatching(signedUrl(`/api/media/${res.body.id}/file`)), position: 1, metadata: { width: null, height: null } });
    const list = await h.call('get', `/api/timelines/${h.world.privateTimeline}/media`, h.as('viewer')).expect(200);
    expect(list.body.map((m: { type: string }) => m.type)).toEqual(['video', 'image']);
    const videos = await h.call('get', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('viewer')).expect(200);
    expect(videos.body.map((m: { id: string }) => m.id)).toEqual([videoId]);
    const file = await h.call('get', `/api/media/${res.body.id}/file`, h.as('viewer')).buffer(true).parse(binary).expect(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(bytesOf(file).equals(png)).toBe(true);
    // A web-size rendition, once the worker made one, is what /file serves.
    await h.storage.put(`media/${res.body.id}/web.jpg`, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    const web = await h.call('get', `/api/media/${res.body.id}/file`, h.as('viewer')).buffer(true).parse(binary).expect(200);
    expect(web.headers['content-type']).toBe('image/jpeg');
    const original = await h.call('get', `/api/media/${res.body.id}/file?variant=original`, h.as('viewer')).buffer(true).parse(binary).expect(200);
    expect(bytesOf(original).equals(png)).toBe(true);
  });

  it('refuses spoofed files with the spec message, storing nothing', async () => {
    const count = async () => (await h.query<{ n: number }>('SELECT count(*)::int AS n FROM media'))[0]!.n;
    const before = await count();
    const html = Buffer.from('<html><body>not a video</body></html>');
    const a = await upload('video', html, 'clip.mp4', 'video/mp4').expect(415);
    expect(a.body.message).toBe('Invalid file type. Only video and image files are supported. Received: text/html for clip.mp4');
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(500, 2)]);
    const b = await upload('media', zip, 'photo.png', 'image/png').expect(415);
    expect(b.body.message).toBe('Invalid file type. Only video and image files are supported. Received: application/zip for photo.png');
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(500, 2)]);
    expect((await upload('video', elf, 'movie.mov', 'video/quicktime').expect(415)).body.message).toMatch(/Received: application\/x-elf for movie.mov$/);
    const c = await upload('video', video, 'notes.txt', 'text/plain').expect(415);
    expect(c.body.message).toBe('Invalid file type. Only video and image files are supported. Received: text/plain for notes.txt');
    await upload('media', video, 'clip.mp4', 'video/mp4').field('extra', 'x');
    expect((await h.call('post', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('editor')).attach('media', video, { filename: 'a.mp4', contentType: 'video/mp4' })).status).toBe(400);
    expect((await h.call('post', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('editor')).send({ video: 'x' })).status).toBe(400);
    expect(await count()).toBe(before + 1); // only the well-formed 'media' upload above
  });

  it('refuses a body declared over 2 GB before reading it', async () => {
    const path = `/api/timelines/${h.world.privateTimeline}/videos`;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${h.service.url}${path}`, {
        method: 'POST',
        headers: { ...h.sign('POST', path, h.as('editor')), 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(3 * 1024 ** 3) },
      }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          expect(JSON.parse(text).message).toBe('File too large. Maximum size is 2GB.');
          resolve(res.statusCode!);
        });
      });
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(status).toBe(413);
  });

  it('multipart bodies are refused on other routes', async () => {
    const res = await h.call('post', `/api/timelines/${h.world.privateTimeline}/videos/reorder`, h.as('editor')).attach('video', video, 'a.mp4');
    expect(res.status).toBe(415);
  });

  describe('GET /api/videos/{id}/stream', () => {
    const get = (range?: string) => {
      const req = h.call('get', `/api/videos/${videoId}/stream`, h.as('viewer')).buffer(true).parse(binary);
      return range ? req.set('range', range) : req;
    };

    it('whole file with safe headers', async () => {
      const res = await get().expect(200);
      expect(bytesOf(res).equals(video)).toBe(true);
      expect(res.headers).toMatchObject({
        'content-type': 'video/mp4', 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff', 'content-length': String(video.length),
        'content-disposition': `inline; filename="Beach day.mp4"; filename*=UTF-8''Beach%20day.mp4`,
      });
    });

    it.each([
      ['first byte', 'bytes=0-0', 0, 0],
      ['a middle range', 'bytes=1000000-1999999', 1_000_000, 1_999_999],
      ['an open range', `bytes=${3 * 1024 * 1024}-`, 3 * 1024 * 1024, video.length - 1],
      ['a suffix', 'bytes=-500', video.length - 500, video.length - 1],
      ['a range past the end (clamped)', `bytes=100-${video.length + 1000}`, 100, video.length - 1],
      ['the whole file as a range', 'bytes=0-', 0, video.length - 1],
    ])('%s', async (_name, range, start, end) => {
      const res = await get(range).expect(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${video.length}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(bytesOf(res).equals(video.subarray(start, end + 1))).toBe(true);
    });

    it('unsatisfiable → 416 with the size', async () => {
      const res = await get(`bytes=${video.length}-`).expect(416);
      expect(res.headers['content-range']).toBe(`bytes */${video.length}`);
      await get('bytes=-0').expect(416);
    });

    it('a malformed range is ignored', async () => {
      expect(bytesOf(await get('bytes=5-2').expect(200)).length).toBe(video.length);
      expect(bytesOf(await get('items=0-5').expect(200)).length).toBe(video.length);
    });

    it('HEAD answers the headers only', async () => {
      const res = await h.call('head', `/api/videos/${videoId}/stream`, h.as('viewer')).expect(200);
      expect(res.headers['content-length']).toBe(String(video.length));
    });
  });

  it('serves HLS files and thumbnails the worker wrote, with their content types', async () => {
    await h.storage.put(`media/${videoId}/hls/master.m3u8`, Buffer.from('#EXTM3U\n'));
    await h.storage.put(`media/${videoId}/hls/360p_000.ts`, Buffer.alloc(188, 0x47));
    await h.storage.put(`media/${videoId}/hls/360p_000.m4s`, Buffer.alloc(10));
    await h.storage.put(`media/${videoId}/thumb.jpg`, Buffer.from([0xff, 0xd8, 0xff]));
    await h.query(`UPDATE media SET hls_master_key = $2, thumbnail_key = $3, status = 'completed', duration = 12.5, processed_at = now(), metadata = '{"width": 1280, "height": 720, "createdAt": "2024-05-01T10:00:00Z"}' WHERE id = $1`,
      [videoId, `media/${videoId}/hls/master.m3u8`, `media/${videoId}/thumb.jpg`]);
    const list = await h.call('get', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('viewer')).expect(200);
    expect(list.body[0]).toMatchObject({ status: 'completed', duration: 12.5, hlsUrl: expect.stringMatching(signedUrl(`/api/videos/${videoId}/hls/master.m3u8`)), thumbnailUrl: expect.stringMatching(signedUrl(`/api/videos/${videoId}/thumbnail`)), metadata: { width: 1280, height: 720, createdAt: '2024-05-01T10:00:00.000Z' } });
    const hls = (file: string) => h.call('get', `/api/videos/${videoId}/hls/${file}`, h.as('viewer'));
    expect((await hls('master.m3u8').expect(200)).headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect((await hls('360p_000.ts').expect(200)).headers['content-type']).toBe('video/mp2t');
    expect((await hls('360p_000.m4s').expect(200)).headers['content-type']).toBe('video/iso.segment');
    await hls('missing.m3u8').expect(404);
    for (const bad of ['..%2Foriginal', 'master.m3u8.exe', '.hidden.ts', 'original', 'a%00.ts']) await hls(bad).expect(404);
    const thumb = await h.call('get', `/api/videos/${videoId}/thumbnail`, h.as('viewer')).expect(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
  });

  it('reorders (exactly the timeline videos), orders by timestamp, renames', async () => {
    const second = (await upload('video', mp4Bytes(5000, 9), 'Second.mp4', 'video/mp4').expect(201)).body.id as string;
    const third = (await upload('video', mp4Bytes(5000, 10), 'Third.mp4', 'video/mp4').expect(201)).body.id as string;
    const path = `/api/timelines/${h.world.privateTimeline}/videos`;
    // The well-formed upload of the spoofing test is a video of this timeline too: it goes last here.
    await h.query(`DELETE FROM media WHERE timeline_id = $1 AND media_type = 'video' AND id NOT IN ($2, $3, $4)`, [h.world.privateTimeline, videoId, second, third]);
    const reordered = await h.call('post', `${path}/reorder`, h.as('editor')).send({ videoIds: [third, videoId, second] }).expect(200);
    expect(reordered.body.map((v: { id: string }) => v.id)).toEqual([third, videoId, second]);
    expect((await h.events(MediaEvents.MediaReordered)).at(-1)).toMatchObject({ timelineId: h.world.privateTimeline, mediaIds: [third, videoId, second] });
    for (const videoIds of [[third, videoId], [third, videoId, second, second], [third, videoId, randomUUID()], 'x', [1, 2, 3]]) {
      await h.call('post', `${path}/reorder`, h.as('editor')).send({ videoIds }).expect(400);
    }

    const byUpload = await h.call('post', `${path}/order-by-timestamp`, h.as('owner')).send({ orderType: 'upload' }).expect(200);
    expect(byUpload.body.map((v: { id: string }) => v.id)).toEqual([videoId, second, third]);
    await h.query(`UPDATE media SET metadata = '{"createdAt": "2020-01-01T00:00:00Z"}' WHERE id = $1`, [third]);
    const byCreated = await h.call('post', `${path}/order-by-timestamp`, h.as('owner')).send({ orderType: 'created' }).expect(200);
    expect(byCreated.body.map((v: { id: string }) => v.id)).toEqual([third, videoId, second]);
    await h.call('post', `${path}/order-by-timestamp`, h.as('owner')).send({ orderType: 'newest' }).expect(400);

    const renamed = await h.call('patch', `/api/videos/${second}/title`, h.as('editor')).send({ title: '  Sunset  ' }).expect(200);
    expect(renamed.body.title).toBe('Sunset');
    expect((await h.call('patch', `/api/videos/${second}/title`, h.as('editor')).send({ title: '   ' }).expect(400)).body.message).toBe('Title is required');
    const stream = await h.call('get', `/api/videos/${second}/stream`, h.as('viewer')).expect(200);
    expect(stream.headers['content-disposition']).toBe(`inline; filename="Sunset.mp4"; filename*=UTF-8''Sunset.mp4`);
  });

  it('lists images among the videos on request, and orders them with the videos', async () => {
    const timeline = h.world.privateTimeline;
    const path = `/api/timelines/${timeline}/videos`;
    const png = Buffer.concat([PNG_HEADER, Buffer.alloc(500, 2)]);
    const image = (await upload('media', png, 'slide.png', 'image/png').expect(201)).body.id as string;
    const ids = async (query = '') => (await h.call('get', `${path}${query}`, h.as('viewer')).expect(200)).body.map((m: { id: string }) => m.id) as string[];
    const all = await ids('?include=images');
    const videos = await ids();
    expect(videos).not.toContain(image);
    expect(all.filter((id) => videos.includes(id))).toEqual(videos);
    const listed = (await h.call('get', `${path}?include=images`, h.as('viewer')).expect(200)).body.find((m: { id: string }) => m.id === image);
    expect(listed).toMatchObject({ mediaType: 'image', originalName: 'slide.png', hlsUrl: null });
    await h.call('get', `${path}?include=everything`, h.as('viewer')).expect(400);

    // Every video and image: that order exactly; the event names the videos.
    const wanted = [image, ...all.filter((id) => id !== image).reverse()];
    const answer = await h.call('post', `${path}/reorder`, h.as('editor')).send({ videoIds: wanted }).expect(200);
    expect(answer.body.map((v: { id: string }) => v.id)).toEqual(wanted.filter((id) => videos.includes(id)));
    expect(await ids('?include=images')).toEqual(wanted);
    expect((await h.events(MediaEvents.MediaReordered)).at(-1)).toMatchObject({ mediaIds: wanted.filter((id) => videos.includes(id)) });

    // Only the videos: the images keep their places.
    const before = await ids('?include=images');
    const reversed = [...videos].reverse();
    await h.call('post', `${path}/reorder`, h.as('editor')).send({ videoIds: reversed }).expect(200);
    const after = await ids('?include=images');
    expect(after.map((id, at) => (videos.includes(id) ? 'v' : before[at]))).toEqual(before.map((id) => (videos.includes(id) ? 'v' : id)));
    expect(after.filter((id) => videos.includes(id))).toEqual(reversed);
    const positions = await h.query<{ position: number }>('SELECT position FROM media WHERE timeline_id = $1 ORDER BY position', [timeline]);
    expect(positions.map((row) => row.position)).toEqual(positions.map((_row, at) => at));

    // By upload time: the image, uploaded last, goes last.
    await h.call('post', `${path}/order-by-timestamp`, h.as('owner')).send({ orderType: 'upload' }).expect(200);
    expect((await ids('?include=images')).at(-1)).toBe(image);
  });

  it('deletes a video with its objects and announces it', async () => {
    const id = (await upload('video', mp4Bytes(5000, 11), 'Gone.mp4', 'video/mp4').expect(201)).body.id as string;
    await h.storage.put(`media/${id}/hls/master.m3u8`, Buffer.from('#EXTM3U\n'));
    await h.query(`UPDATE media SET duration = 7, processed_at = now(), status = 'completed' WHERE id = $1`, [id]);
    await h.call('delete', `/api/videos/${id}`, h.as('viewer')).expect(403);
    await h.call('delete', `/api/videos/${id}`, h.as('owner')).expect(204);
    expect(await h.query('SELECT 1 FROM media WHERE id = $1', [id])).toEqual([]);
    const left = [];
    for await (const o of h.storage.list(`media/${id}/`)) left.push(o);
    expect(left).toEqual([]);
    expect((await h.events(MediaEvents.MediaDeleted)).at(-1)).toMatchObject({ mediaId: id, timelineId: h.world.privateTimeline, mediaType: MediaType.VIDEO, duration: 7 });
    await h.call('delete', `/api/videos/${id}`, h.as('owner')).expect(404);
  });

  it('a deleted timeline takes its media, objects and uploads with it', async () => {
    const id = (await upload('video', mp4Bytes(5000, 12), 'Public.mp4', 'video/mp4', h.world.publicTimeline, 'owner').expect(201)).body.id as string;
    await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: h.world.publicTimeline });
    await waitFor(async () => (await h.query('SELECT 1 FROM media WHERE timeline_id = $1', [h.world.publicTimeline])).length === 0);
    expect(await h.storage.stat(`media/${id}/original`)).toBeNull();
  });

  it('answers 503 when the timelines service cannot answer', async () => {
    h.setTimelines('fail');
    try {
      await h.call('get', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('owner')).expect(503);
      await h.call('get', `/api/videos/${videoId}/stream`, h.as('owner')).expect(503);
    } finally {
      h.setTimelines('answer');
    }
  });
});
