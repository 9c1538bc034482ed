import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { MediaUrlSigner } from '../src/media/media-urls.js';
import { binary, type MediaHarness, mp4Bytes, PNG_HEADER, startHarness } from './harness.js';

const bytesOf = (res: { body: unknown; text?: string }): Buffer => (Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.text ?? ''));

describe('signed media URLs: ?access=<token> opens one media item without the bearer header', () => {
  let h: MediaHarness;
  const video = mp4Bytes(20_000, 4);
  const png = Buffer.concat([PNG_HEADER, Buffer.alloc(300, 3)]);
  let videoA: string;
  let videoB: string;
  let image: string;
  let urls: Record<'stream' | 'thumbnail' | 'cloudThumbnail' | 'hls' | 'cloudVideo' | 'cloud' | 'itemThumbnail' | 'itemHls' | 'image', string>;

  const insert = async (id: string, type: 'video' | 'image', position: number) => {
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at, thumbnail_key, hls_master_key)
       VALUES ($1, $2, $3, $4, $5, 't', $6, $7, $8, 'completed', $9, now(), $10, $11)`,
      [id, h.world.privateTimeline, h.world.owner, `media/${id}/original`, type === 'video' ? 'v.mp4' : 'i.png', type, type === 'video' ? video.length : png.length,
        type === 'video' ? 'video/mp4' : 'image/png', position, type === 'video' ? `media/${id}/thumb.jpg` : null, type === 'video' ? `media/${id}/hls/master.m3u8` : null],
    );
    await h.storage.put(`media/${id}/original`, type === 'video' ? video : png);
    if (type === 'video') {
      await h.storage.put(`media/${id}/thumb.jpg`, Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
      await h.storage.put(`media/${id}/hls/master.m3u8`, Buffer.from('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360\n360p/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=900000\n720p/index.m3u8\n'));
      await h.storage.put(`media/${id}/hls/360p/index.m3u8`, Buffer.from('#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4.0,\nseg_000.m4s\n#EXTINF:4.0,\nseg_001.m4s\n#EXT-X-ENDLIST\n'));
      await h.storage.put(`media/${id}/hls/360p/seg_000.m4s`, Buffer.alloc(64, 7));
    }
  };
  /** The request a browser makes for an <img src>, <video src> or a link: signed as anonymous by the gateway. */
  const anonymous = (url: string) => h.call('get', url, {}).buffer(true).parse(binary);
  const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('access')!;

  beforeAll(async () => {
    h = await startHarness('mediasigned');
    videoA = randomUUID();
    videoB = randomUUID();
    image = randomUUID();
    await insert(videoA, 'video', 0);
    await insert(videoB, 'video', 1);
    await insert(image, 'image', 2);
    const videos = (await h.call('get', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('viewer')).expect(200)).body as Array<Record<string, string>>;
    const media = (await h.call('get', `/api/timelines/${h.world.privateTimeline}/media`, h.as('viewer')).expect(200)).body as Array<Record<string, string>>;
    const a = videos.find((v) => v.id === videoA)!;
    const item = media.find((m) => m.id === videoA)!;
    const img = media.find((m) => m.id === image)!;
    urls = {
      stream: a.streamUrl!, thumbnail: a.thumbnailUrl!, cloudThumbnail: a.cloudThumbnailUrl!, hls: a.hlsUrl!,
      cloudVideo: item.cloudVideoUrl!, cloud: item.cloudUrl!, itemThumbnail: item.thumbnailUrl!, itemHls: item.hlsUrl!, image: img.cloudUrl!,
    };
  });
  afterAll(async () => {
    await h.close();
  });

  it('every URL of a list carries the same one-media token', () => {
    expect(urls.stream).toMatch(new RegExp(`^/api/videos/${videoA}/stream\\?access=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    // The token names the viewer it was handed to.
    expect(Buffer.from(tokenOf(urls.stream).split('.')[1]!, 'base64url').toString()).toBe(h.world.viewer);
    expect(urls.image).toMatch(new RegExp(`^/api/media/${image}/file\\?access=`));
    const token = tokenOf(urls.stream);
    for (const url of [urls.thumbnail, urls.cloudThumbnail, urls.hls, urls.cloudVideo, urls.cloud, urls.itemThumbnail, urls.itemHls]) expect(tokenOf(url)).toBe(token);
    const expiry = Number(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    const left = expiry - Date.now() / 1000;
    expect(expiry % 3600).toBe(0);
    expect(left).toBeGreaterThan(3600 - 5);
    expect(left).toBeLessThanOrEqual(7200);
  });

  it('a signed URL of a private timeline opens without identity', async () => {
    const stream = await anonymous(urls.stream).expect(200);
    expect(bytesOf(stream).equals(video)).toBe(true);
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(stream.headers['cache-control'] as string)?.[1]);
    // Cached no longer than the viewer's access is confirmed for.
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(30);
    const range = await anonymous(urls.stream).set('range', 'bytes=10-19').expect(206);
    expect(bytesOf(range).equals(video.subarray(10, 20))).toBe(true);
    expect((await anonymous(urls.thumbnail).expect(200)).headers['content-type']).toBe('image/jpeg');
    const img = await anonymous(urls.image).expect(200);
    expect(bytesOf(img).equals(png)).toBe(true);
    expect(img.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(bytesOf(await anonymous(`${urls.image}&variant=original`).expect(200)).equals(png)).toBe(true);
    expect((await anonymous(urls.hls).expect(200)).headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(bytesOf(await anonymous(`/api/videos/${videoA}/hls/360p/seg_000.m4s?access=${tokenOf(urls.stream)}`).expect(200))).toHaveLength(64);
    // No identity headers at all.
    await request(h.service.url).get(urls.thumbnail).expect(200);
  });

  it('a signed playlist carries the token on every URI, so native HLS can follow it', async () => {
    const token = tokenOf(urls.hls);
    const master = bytesOf(await anonymous(urls.hls).expect(200)).toString();
    expect(master).toBe(`#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360\n360p/index.m3u8?access=${token}\n#EXT-X-STREAM-INF:BANDWIDTH=900000\n720p/index.m3u8?access=${token}\n`);
    const rendition = await anonymous(`/api/videos/${videoA}/hls/360p/index.m3u8?access=${token}`).expect(200);
    const lines = bytesOf(rendition).toString().split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(lines).toEqual([`seg_000.m4s?access=${token}`, `seg_001.m4s?access=${token}`]);
    expect(bytesOf(rendition).toString()).toContain(`#EXT-X-MAP:URI="init.mp4?access=${token}"`);
    expect(rendition.headers['content-length']).toBe(String(bytesOf(rendition).length));
    expect(rendition.headers['x-content-type-options']).toBe('nosniff');
    // With the bearer header (hls.js) the playlist is sent as stored.
    const stored = await h.call('get', `/api/videos/${videoA}/hls/master.m3u8`, h.as('viewer')).buffer(true).parse(binary).expect(200);
    expect(bytesOf(stored).toString()).not.toContain('access=');
    expect(stored.headers['cache-control']).toBe('private, no-cache');
  });

  it('a tampered or expired token answers 401 Link expired', async () => {
    const token = tokenOf(urls.stream);
    const [expiry, mac] = token.split('.') as [string, string];
    const flipped = `${mac.slice(0, 5)}${mac[5] === 'A' ? 'B' : 'A'}${mac.slice(6)}`;
    const later = Buffer.from(String(Number(Buffer.from(expiry, 'base64url').toString()) + 3600)).toString('base64url');
    const expired = new MediaUrlSigner(h.secret, () => Date.now() - 3 * 3600_000).token(videoA);
    for (const bad of [`${expiry}.${flipped}`, `${later}.${mac}`, expired, 'garbage', '']) {
      for (const path of [`/api/videos/${videoA}/stream`, `/api/videos/${videoA}/thumbnail`, `/api/videos/${videoA}/hls/master.m3u8`, `/api/videos/${videoA}/hls/360p/seg_000.m4s`]) {
        const res = await h.call('get', `${path}?access=${bad}`, {}).expect(401);
        expect(res.body.message).toBe('Link expired');
      }
    }
    const repeated = await h.call('get', `/api/videos/${videoA}/stream?access=${token}&access=${token}`, {}).expect(401);
    expect(repeated.body.message).toBe('Link expired');
    // A caller who may view is served whatever the token says.
    await h.call('get', `/api/videos/${videoA}/thumbnail?access=${expired}`, h.as('viewer')).expect(200);
  });

  it('a token for media A does not open media B', async () => {
    const token = tokenOf(urls.stream);
    for (const path of [`/api/videos/${videoB}/stream`, `/api/videos/${videoB}/thumbnail`, `/api/videos/${videoB}/hls/master.m3u8`, `/api/media/${image}/file`]) {
      expect((await h.call('get', `${path}?access=${token}`, {}).expect(401)).body.message).toBe('Link expired');
    }
    expect((await h.call('get', `/api/videos/${videoB}/stream?access=${token}`, h.as('stranger')).expect(401)).body.message).toBe('Link expired');
  });

  it('a link of content its viewer has lost access to stops working within 60 s, the URL staying the same while they keep it', async () => {
    await anonymous(urls.stream).expect(200);
    const viewer = h.world.viewer;
    // The viewer leaves the team (or stops following the private account): the timelines service now says no.
    h.world.viewer = randomUUID();
    try {
      const started = Date.now();
      while ((await anonymous(urls.hls)).status === 200) {
        expect(Date.now() - started).toBeLessThan(60_000);
        await new Promise((r) => setTimeout(r, 1_000));
      }
      for (const url of [urls.stream, urls.hls, urls.thumbnail, urls.image]) expect(JSON.parse(bytesOf(await anonymous(url).expect(401)).toString()).message).toBe('Link expired');
    } finally {
      h.world.viewer = viewer;
    }
  }, 90_000);

  it('unsigned requests are decided by the caller, as before', async () => {
    await h.call('get', `/api/videos/${videoA}/stream`, {}).expect(401);
    await h.call('get', `/api/videos/${videoA}/thumbnail`, {}).expect(401);
    await h.call('get', `/api/videos/${videoA}/hls/master.m3u8`, {}).expect(401);
    await h.call('get', `/api/media/${image}/file`, {}).expect(401);
    await h.call('get', `/api/videos/${videoA}/stream`, h.as('stranger')).expect(404);
    const viewer = await h.call('get', `/api/videos/${videoA}/thumbnail`, h.as('viewer')).expect(200);
    expect(viewer.headers['cache-control']).toBe('private, max-age=86400');
  });
});
