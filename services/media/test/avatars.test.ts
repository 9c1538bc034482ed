import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { avatarPng, binary, type MediaHarness, mp4Bytes, startHarness } from './harness.js';

const bytesOf = (res: { body: unknown }): Buffer => res.body as Buffer;

describe('profile pictures: POST /api/media/avatar, GET /api/users/{id}/avatar', () => {
  let h: MediaHarness;
  const me = { userId: randomUUID() };

  beforeAll(async () => {
    h = await startHarness('avatars');
  });
  afterAll(async () => {
    await h.close();
  });

  const upload = (data: Buffer, filename = 'me.png', contentType = 'image/png', as = me) =>
    h.call('post', '/api/media/avatar', as).attach('file', data, { filename, contentType });

  it('stores an upright 512 x 512 JPEG of the centre square, without the original\'s metadata', async () => {
    // A portrait phone photo: 600 x 800 as stored, turned by its EXIF orientation, with a GPS-like comment.
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#00ff00' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { ImageDescription: 'taken at 48.8584 N 2.2945 E' } } })
      .toBuffer();
    const res = await upload(photo, 'IMG_0001.JPG', 'image/jpeg').expect(201);
    expect(res.body).toEqual({ avatar: expect.stringMatching(new RegExp(`^/api/users/${me.userId}/avatar\\?v=\\d+$`)), width: 512, height: 512, size: expect.any(Number) });

    const served = await h.call('get', res.body.avatar).buffer(true).parse(binary).expect(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const info = await sharp(bytesOf(served)).metadata();
    expect(info).toMatchObject({ format: 'jpeg', width: 512, height: 512 });
    expect(info.exif).toBeUndefined();
    expect(info.orientation).toBeUndefined();
    expect(bytesOf(served).includes(Buffer.from('48.8584'))).toBe(false);
  });

  it('crops the centre: the two halves of a wide picture stay side by side', async () => {
    const res = await upload(await avatarPng()).expect(201);
    const served = await h.call('get', res.body.avatar).buffer(true).parse(binary).expect(200);
    const { data } = await sharp(bytesOf(served)).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 512 + x) * 3, (y * 512 + x) * 3 + 3)];
    expect(pixel(20, 256)[0]).toBeGreaterThan(200); // red on the left
    expect(pixel(490, 256)[2]).toBeGreaterThan(200); // blue on the right
  });

  it('a new picture is a new URL; the old object is deleted; the old URL is served briefly cached', async () => {
    const first = await upload(await avatarPng()).expect(201);
    const key = (await h.query<{ object_key: string }>('SELECT object_key FROM avatars WHERE user_id = $1', [me.userId]))[0]!.object_key;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await upload(await avatarPng()).expect(201);
    expect(second.body.avatar).not.toBe(first.body.avatar);
    expect(await h.storage.stat(key)).toBeNull();
    const stale = await h.call('get', first.body.avatar).buffer(true).parse(binary).expect(200);
    expect(stale.headers['cache-control']).toBe('public, max-age=60');
    const etag = stale.headers.etag as string;
    await h.call('get', second.body.avatar).set('if-none-match', etag).expect(304);
    expect((await h.query('SELECT * FROM avatars WHERE user_id = $1', [me.userId])).length).toBe(1);
  });

  it('refuses what is not a picture, by its bytes, storing nothing', async () => {
    const someone = { userId: randomUUID() };
    const cases: Array<[Buffer, string, string]> = [
      [Buffer.from('<html><script>alert(1)</script></html>'), 'me.png', 'image/png'],
      [mp4Bytes(4000), 'me.jpg', 'image/jpeg'],
      // A PNG signature followed by garbage: sniffed as PNG, refused by the decoder.
      [Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)]), 'me.png', 'image/png'],
    ];
    for (const [data, name, type] of cases) {
      const res = await upload(data, name, type, someone).expect(400);
      expect(res.body.message).toBe('Please choose an image file (JPEG, PNG, WebP or GIF)');
    }
    expect((await h.call('post', '/api/media/avatar', someone).send({ file: 'x' }).expect(400)).body.message).toBe("Send a multipart form with the image in the 'file' field");
    expect((await h.call('post', '/api/media/avatar', someone).attach('picture', await avatarPng(), 'me.png').expect(400)).body.message).toBe("Send a multipart form with the image in the 'file' field");
    expect((await h.query('SELECT * FROM avatars WHERE user_id = $1', [someone.userId])).length).toBe(0);
  });

  it('refuses a picture over 10 MB with 413 and the sign-in-less with 401', async () => {
    const someone = { userId: randomUUID() };
    const big = Buffer.concat([await avatarPng(), Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(big, 'big.png', 'image/png', someone);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Images can be at most 10 MB');
    expect((await upload(await avatarPng(), 'me.png', 'image/png', {} as typeof me)).status).toBe(401);
    expect((await h.query('SELECT * FROM avatars WHERE user_id = $1', [someone.userId])).length).toBe(0);
  });

  it('answers 404 for a person without a picture and for a malformed id', async () => {
    expect((await h.call('get', `/api/users/${randomUUID()}/avatar`).expect(404)).body.message).toBe('Avatar not found');
    await h.call('get', '/api/users/not-a-uuid/avatar').expect(404);
    await h.call('get', `/api/users/${me.userId.toUpperCase()}/avatar`).expect(200);
  });
});
