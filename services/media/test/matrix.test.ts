import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type request from 'supertest';
import { avatarPng, CALLERS, type MediaHarness, mp4Bytes, PNG_HEADER, startHarness, tusMetadata, type Who } from './harness.js';

/**
 * Authorization matrix: every route of the media service × {anonymous, stranger, viewer, editor,
 * owner} × a private and a public timeline, with the expected status. The route list is read from
 * the service's own OpenAPI document, so a new route without a row here fails the suite.
 *
 * Policy (access/timeline-access.ts): reads need CheckAccess canView — anonymous callers who may
 * not view get 401, signed-in ones 404; writes need canEdit (owner, editor) — others who may view
 * get 403. An upload session is its creator's alone (the editor here): anyone else gets 404.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
type State = 'private' | 'public';
type Row5 = readonly [number, number, number, number, number];

interface Fixture {
  timelineId: string;
  videoId: string;
  imageId: string;
  /** A completed export of the timeline. */
  exportId: string;
  /** An upload session of the editor, 1 MiB stored of 20 MiB. */
  uploadPath: string;
  /** A person with a profile picture. */
  avatarOf: string;
}

interface Row {
  method: Method;
  route: string;
  path: (f: Fixture) => string;
  send?: (req: request.Test, f: Fixture, h: MediaHarness) => request.Test | Promise<request.Response>;
  expect: Record<State, Row5>;
  fresh?: boolean;
}

/**
 * A person's own data export is about no timeline: its callers (the person, someone else, a
 * signed-out caller, the signed link) are tried in test/contracts/data-export.test.ts.
 */
const OWN_DATA_ROUTES = ['GET /api/account/data-exports', 'POST /api/account/data-exports', 'GET /api/account/data-exports/{id}/file'];

const read = (ok: number): Record<State, Row5> => ({ private: [401, 404, ok, ok, ok], public: [ok, ok, ok, ok, ok] });
const write = (ok: number): Record<State, Row5> => ({ private: [401, 404, 403, ok, ok], public: [401, 403, 403, ok, ok] });
const creatorOnly = (ok: number): Record<State, Row5> => ({ private: [401, 404, 404, ok, 404], public: [401, 404, 404, ok, 404] });
const everyone = (ok: number): Record<State, Row5> => ({ private: [ok, ok, ok, ok, ok], public: [ok, ok, ok, ok, ok] });
const tus = { 'tus-resumable': '1.0.0' };
const CAPTION_VTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n';
const captionForm = (r: request.Test, language: string, file: string | Buffer, name = 'c.vtt') => r.field('language', language).attach('file', Buffer.from(file), { filename: name, contentType: 'text/vtt' });

const matrix: Row[] = [
  { method: 'options', route: '/api/uploads', path: () => '/api/uploads', expect: everyone(204) },
  {
    method: 'post', route: '/api/uploads', path: () => '/api/uploads',
    send: (req, f) => req.set({ ...tus, 'upload-length': '1000', 'upload-metadata': tusMetadata({ timelineId: f.timelineId, filename: 'm.mp4', filetype: 'video/mp4' }) }),
    expect: write(201),
  },
  { method: 'head', route: '/api/uploads/{id}', path: (f) => f.uploadPath, send: (req) => req.set(tus), expect: creatorOnly(200) },
  {
    method: 'patch', route: '/api/uploads/{id}', path: (f) => f.uploadPath, fresh: true,
    send: (req) => req.set({ ...tus, 'upload-offset': String(1024 * 1024), 'content-type': 'application/offset+octet-stream' }).send(Buffer.alloc(1000, 1)),
    expect: creatorOnly(204),
  },
  { method: 'delete', route: '/api/uploads/{id}', path: (f) => f.uploadPath, fresh: true, send: (req) => req.set(tus), expect: creatorOnly(204) },
  { method: 'get', route: '/api/timelines/{id}/videos', path: (f) => `/api/timelines/${f.timelineId}/videos`, expect: read(200) },
  { method: 'get', route: '/api/timelines/{id}/media', path: (f) => `/api/timelines/${f.timelineId}/media`, expect: read(200) },
  {
    method: 'post', route: '/api/timelines/{id}/videos', path: (f) => `/api/timelines/${f.timelineId}/videos`,
    send: (req) => req.attach('video', mp4Bytes(4000), { filename: 'up.mp4', contentType: 'video/mp4' }), expect: write(201),
  },
  {
    method: 'post', route: '/api/timelines/{id}/media', path: (f) => `/api/timelines/${f.timelineId}/media`,
    send: (req) => req.attach('media', Buffer.concat([PNG_HEADER, Buffer.alloc(100)]), { filename: 'up.png', contentType: 'image/png' }), expect: write(201),
  },
  {
    method: 'post', route: '/api/timelines/{id}/videos/reorder', path: (f) => `/api/timelines/${f.timelineId}/videos/reorder`,
    send: async (req, f, h) => req.send({ videoIds: (await h.query<{ id: string }>(`SELECT id FROM media WHERE timeline_id = $1 AND media_type = 'video' ORDER BY position DESC`, [f.timelineId])).map((r) => r.id) }),
    expect: write(200),
  },
  {
    method: 'post', route: '/api/timelines/{id}/videos/order-by-timestamp', path: (f) => `/api/timelines/${f.timelineId}/videos/order-by-timestamp`,
    send: (req) => req.send({ orderType: 'created' }), expect: write(200),
  },
  { method: 'patch', route: '/api/videos/{id}/title', path: (f) => `/api/videos/${f.videoId}/title`, send: (req) => req.send({ title: 'Renamed' }), expect: write(200) },
  { method: 'patch', route: '/api/videos/{id}/sensitive', path: (f) => `/api/videos/${f.videoId}/sensitive`, send: (req) => req.send({ sensitive: true }), expect: write(200) },
  { method: 'delete', route: '/api/videos/{id}', path: (f) => `/api/videos/${f.videoId}`, fresh: true, expect: write(204) },
  { method: 'get', route: '/api/videos/{id}/stream', path: (f) => `/api/videos/${f.videoId}/stream`, expect: read(200) },
  { method: 'get', route: '/api/videos/{id}/hls/{file}', path: (f) => `/api/videos/${f.videoId}/hls/master.m3u8`, expect: read(200) },
  { method: 'get', route: '/api/videos/{id}/hls/{rendition}/{file}', path: (f) => `/api/videos/${f.videoId}/hls/144p/index.m3u8`, expect: read(200) },
  { method: 'get', route: '/api/videos/{id}/thumbnail', path: (f) => `/api/videos/${f.videoId}/thumbnail`, expect: read(200) },
  { method: 'get', route: '/api/media/{id}/file', path: (f) => `/api/media/${f.imageId}/file`, expect: read(200) },
  // Captions: read like the video, changed like its timeline's media.
  { method: 'get', route: '/api/videos/{id}/captions', path: (f) => `/api/videos/${f.videoId}/captions`, expect: read(200) },
  { method: 'get', route: '/api/videos/{id}/captions/{language}', path: (f) => `/api/videos/${f.videoId}/captions/en`, expect: read(200) },
  {
    method: 'post', route: '/api/videos/{id}/captions', path: (f) => `/api/videos/${f.videoId}/captions`,
    send: (req) => req.field('language', 'fr').attach('file', Buffer.from(CAPTION_VTT), { filename: 'fr.vtt', contentType: 'text/vtt' }), expect: write(201),
  },
  { method: 'delete', route: '/api/videos/{id}/captions/{language}', path: (f) => `/api/videos/${f.videoId}/captions/en`, fresh: true, expect: write(204) },
  // Alt text and descriptions: read in the lists like the item, set and put off like its timeline's media; the studio's missing list for those who edit.
  { method: 'put', route: '/api/videos/{id}/alt-text', path: (f) => `/api/videos/${f.imageId}/alt-text`, send: (req) => req.send({ altText: 'A red kite over the hill' }), expect: write(200) },
  { method: 'post', route: '/api/videos/{id}/alt-text/later', path: (f) => `/api/videos/${f.videoId}/alt-text/later`, expect: write(204) },
  { method: 'get', route: '/api/timelines/{id}/media/missing-alt-text', path: (f) => `/api/timelines/${f.timelineId}/media/missing-alt-text`, expect: write(200) },
  // The harness has no worker: the export is still queued when the wait runs out (202).
  {
    method: 'post', route: '/api/timelines/{id}/export', path: (f) => `/api/timelines/${f.timelineId}/export`,
    send: (req) => req.send({ options: { quality: '720p' } }), expect: { private: [401, 404, 202, 202, 202], public: [401, 202, 202, 202, 202] },
  },
  { method: 'get', route: '/api/exports/{id}', path: (f) => `/api/exports/${f.exportId}`, expect: read(200) },
  { method: 'get', route: '/api/exports/{id}/file', path: (f) => `/api/exports/${f.exportId}/file`, expect: read(200) },
  // Profile pictures belong to people, not timelines: any signed-in caller uploads their own; anyone sees them.
  {
    method: 'post', route: '/api/media/avatar', path: () => '/api/media/avatar',
    send: async (req) => await req.attach('file', await avatarPng(), { filename: 'me.png', contentType: 'image/png' }),
    expect: { private: [401, 201, 201, 201, 201], public: [401, 201, 201, 201, 201] },
  },
  { method: 'get', route: '/api/users/{id}/avatar', path: (f) => `/api/users/${f.avatarOf}/avatar`, expect: everyone(200) },
  // Each signed-in person's own storage; no timeline involved.
  { method: 'get', route: '/api/media/storage', path: () => '/api/media/storage', expect: { private: [401, 200, 200, 200, 200], public: [401, 200, 200, 200, 200] } },
];

/** Bad input by a caller allowed to write: a 4xx with the message, and nothing written. */
const badInput: Array<{ route: string; method: Method; path: (f: Fixture) => string; send: (req: request.Test, f: Fixture) => request.Test; status: number; message: string | RegExp }> = [
  ...[
    [{}, 'videoIds must be the list of the timeline\'s video ids'],
    [{ videoIds: 'x' }, 'videoIds must be the list of the timeline\'s video ids'],
    [{ videoIds: [1] }, 'videoIds must be the list of the timeline\'s video ids'],
    [{ videoIds: [randomUUID()] }, "videoIds must list each of the timeline's videos exactly once"],
    [{ videoIds: [], extra: 1 }, 'Unknown field: extra'],
  ].map(([body, message]) => ({ route: '/api/timelines/{id}/videos/reorder', method: 'post' as const, path: (f: Fixture) => `/api/timelines/${f.timelineId}/videos/reorder`, send: (r: request.Test) => r.send(body as object), status: 400, message: message as string })),
  ...[
    [{}, 'orderType must be upload or created'],
    [{ orderType: 'newest' }, 'orderType must be upload or created'],
    [{ orderType: 'upload', by: 'x' }, 'Unknown field: by'],
  ].map(([body, message]) => ({ route: '/api/timelines/{id}/videos/order-by-timestamp', method: 'post' as const, path: (f: Fixture) => `/api/timelines/${f.timelineId}/videos/order-by-timestamp`, send: (r: request.Test) => r.send(body as object), status: 400, message: message as string })),
  ...[
    [{}, 'Title is required'],
    [{ title: '' }, 'Title is required'],
    [{ title: '   ' }, 'Title is required'],
    [{ title: 42 }, 'Title is required'],
    [{ title: 'a'.repeat(201) }, 'Title must be at most 200 characters'],
    [{ title: 'ok', status: 'completed' }, 'Unknown field: status'],
  ].map(([body, message]) => ({ route: '/api/videos/{id}/title', method: 'patch' as const, path: (f: Fixture) => `/api/videos/${f.videoId}/title`, send: (r: request.Test) => r.send(body as object), status: 400, message: message as string })),
  ...[
    [{}, 'Sensitive must be true or false'],
    [{ sensitive: 'yes' }, 'Sensitive must be true or false'],
    [{ sensitive: null }, 'Sensitive must be true or false'],
    [{ sensitive: true, title: 'x' }, 'Unknown field: title'],
  ].map(([body, message]) => ({ route: '/api/videos/{id}/sensitive', method: 'patch' as const, path: (f: Fixture) => `/api/videos/${f.videoId}/sensitive`, send: (r: request.Test) => r.send(body as object), status: 400, message: message as string })),
  ...[
    [{}, 'altText must be text'],
    [{ altText: 7 }, 'altText must be text'],
    [{ altText: ' <b></b>\u0007 ' }, 'Alt text is required'],
    [{ altText: 'a'.repeat(1501) }, 'Alt text must be at most 1500 characters'],
    [{ altText: 'ok', deferred: true }, 'Unknown field: deferred'],
  ].map(([body, message]) => ({ route: '/api/videos/{id}/alt-text', method: 'put' as const, path: (f: Fixture) => `/api/videos/${f.imageId}/alt-text`, send: (r: request.Test) => r.send(body as object), status: 400, message: message as string })),
  { route: '/api/videos/{id}/alt-text', method: 'put', path: (f) => `/api/videos/${f.videoId}/alt-text`, status: 400, message: 'The description must be at most 500 characters', send: (r) => r.send({ altText: 'b'.repeat(501) }) },
  { route: '/api/videos/{id}/alt-text/later', method: 'post', path: (f) => `/api/videos/${f.videoId}/alt-text/later`, status: 400, message: 'Unknown field: altText', send: (r) => r.send({ altText: 'x' }) },
  ...[
    [{ 'upload-metadata': tusMetadata({ filename: 'a.mp4' }) }, 400, 'Upload-Length is required (Upload-Defer-Length is not supported)'],
    [{ 'upload-length': '-1' }, 400, 'Upload-Length must be a whole number of bytes'],
    [{ 'upload-length': '10', 'upload-metadata': 'timelineId !!!' }, 400, 'Upload-Metadata must be comma-separated "key base64value" pairs'],
    [{ 'upload-length': '10', 'upload-metadata': tusMetadata({ filename: 'a.mp4' }) }, 400, 'Upload-Metadata must name the timelineId'],
    [{ 'upload-length': '0' }, 400, 'The file is empty'],
    [{ 'upload-length': String(2 * 1024 ** 3 + 1) }, 413, 'File too large. Maximum size is 2GB.'],
    [{ 'upload-length': '10', filetype: 'application/pdf', filename: 'doc.pdf' }, 415, 'Invalid file type. Only video and image files are supported. Received: application/pdf for doc.pdf'],
  ].map(([headers, status, message]) => ({
    route: '/api/uploads', method: 'post' as const, path: () => '/api/uploads', status: status as number, message: message as string,
    send: (r: request.Test, f: Fixture) => {
      const { filetype = 'video/mp4', filename = 'a.mp4', ...rest } = headers as Record<string, string>;
      return r.set({ ...tus, 'upload-metadata': tusMetadata({ timelineId: f.timelineId, filename, filetype }), ...rest });
    },
  })),
  { route: '/api/uploads/{id}', method: 'patch', path: (f) => f.uploadPath, status: 409, message: /does not match/, send: (r) => r.set({ ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(Buffer.alloc(10)) },
  { route: '/api/uploads/{id}', method: 'patch', path: (f) => f.uploadPath, status: 415, message: 'Content-Type must be application/offset+octet-stream', send: (r) => r.set({ ...tus, 'upload-offset': String(1024 * 1024), 'content-type': 'text/plain' }).send('hello') },
  { route: '/api/uploads/{id}', method: 'patch', path: (f) => f.uploadPath, status: 400, message: 'Upload-Offset must be a whole number of bytes', send: (r) => r.set({ ...tus, 'content-type': 'application/offset+octet-stream' }).send(Buffer.alloc(10)) },
  { route: '/api/uploads/{id}', method: 'patch', path: (f) => f.uploadPath, status: 412, message: 'Tus-Resumable must be 1.0.0', send: (r) => r.set({ 'upload-offset': String(1024 * 1024), 'content-type': 'application/offset+octet-stream' }).send(Buffer.alloc(10)) },
  ...[
    [{ extra: 1 }, 'Unknown field: extra'],
    [{ options: 'x' }, 'options must be an object'],
    [{ options: { quality: '4k' } }, 'options.quality must be 720p or 1080p'],
    [{ options: { title: 'a'.repeat(201) } }, 'options.title must be at most 200 characters'],
    [{ options: { fileName: 'x.mp4' } }, 'Unknown field: options.fileName'],
  ].map(([body, message]) => ({ route: '/api/timelines/{id}/export', method: 'post' as const, path: (f: Fixture) => `/api/timelines/${f.timelineId}/export`, send: (r: request.Test) => r.send(body as object), status: 400, message: message as string })),
  { route: '/api/timelines/{id}/videos', method: 'post', path: (f) => `/api/timelines/${f.timelineId}/videos`, status: 400, message: "Send a multipart form with the file in the 'video' field", send: (r) => r.send({ video: 'x' }) },
  { route: '/api/timelines/{id}/videos', method: 'post', path: (f) => `/api/timelines/${f.timelineId}/videos`, status: 415, message: 'Invalid file type. Only video and image files are supported. Received: text/html for clip.mp4', send: (r) => r.attach('video', Buffer.from('<html></html>'), { filename: 'clip.mp4', contentType: 'video/mp4' }) },
  { route: '/api/timelines/{id}/media', method: 'post', path: (f) => `/api/timelines/${f.timelineId}/media`, status: 400, message: "Send a multipart form with the file in the 'media' field", send: (r) => r.attach('file', mp4Bytes(100), { filename: 'a.mp4', contentType: 'video/mp4' }) },
  { route: '/api/timelines/{id}/media', method: 'post', path: (f) => `/api/timelines/${f.timelineId}/media`, status: 415, message: 'Invalid file type. Only video and image files are supported. Received: application/zip for a.png', send: (r) => r.attach('media', Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0, 0]), { filename: 'a.png', contentType: 'image/png' }) },
  { route: '/api/media/avatar', method: 'post', path: () => '/api/media/avatar', status: 400, message: "Send a multipart form with the image in the 'file' field", send: (r) => r.send({ file: 'x' }) },
  ...[
    ['en', 'WEBVTT\n\n00:00:01.000 --> 00:00:0x.000\nbad', 400, 'Line 3: the end time "00:00:0x.000" is not a time like 00:01:02.500'],
    ['en', 'hello', 400, /neither WebVTT .* nor SRT/],
    ['en', Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0xff, 0xfe]), 400, /not text/],
    ['en', `WEBVTT\n\n${'00:00:01.000 --> 00:00:02.000\nwords\n\n'.repeat(30_000)}`, 413, 'The caption file is too large. Maximum size is 1 MB'],
    ['english!', CAPTION_VTT, 400, 'language must be a language tag such as en, fr or pt-BR'],
  ].map(([language, file, status, message]) => ({
    route: '/api/videos/{id}/captions', method: 'post' as const, path: (f: Fixture) => `/api/videos/${f.videoId}/captions`, status: status as number, message: message as string | RegExp,
    send: (r: request.Test) => captionForm(r, language as string, file as string | Buffer),
  })),
  { route: '/api/videos/{id}/captions', method: 'post', path: (f) => `/api/videos/${f.videoId}/captions`, status: 400, message: /Send a multipart form/, send: (r) => r.send({ language: 'en' }) },
  { route: '/api/media/avatar', method: 'post', path: () => '/api/media/avatar', status: 400, message: 'Please choose an image file (JPEG, PNG, WebP or GIF)', send: (r) => r.attach('file', mp4Bytes(2000), { filename: 'me.png', contentType: 'image/png' }) },
];

describe('media routes: authorization matrix and bad input', () => {
  let h: MediaHarness;

  const fixture = async (state: State): Promise<Fixture> => {
    const timelineId = state === 'private' ? h.world.privateTimeline : h.world.publicTimeline;
    const videoId = randomUUID();
    const imageId = randomUUID();
    const exportId = randomUUID();
    await h.query(
      `INSERT INTO exports (id, timeline_id, requested_by, status, object_key, file_name, completed_at) VALUES ($1, $2, $3, 'completed', $4, 'v.mp4', now())`,
      [exportId, timelineId, h.world.owner, `exports/${exportId}/v.mp4`],
    );
    await h.storage.put(`exports/${exportId}/v.mp4`, mp4Bytes(2000));
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at, thumbnail_key, hls_master_key)
       VALUES ($1, $3, $4, $5, 'v.mp4', 'v', 'video', 4000, 'video/mp4', 'completed', 0, now(), $6, $7),
              ($2, $3, $4, $8, 'i.png', 'i', 'image', 100, 'image/png', 'completed', 1, now(), NULL, NULL)`,
      [videoId, imageId, timelineId, h.world.owner, `media/${videoId}/original`, `media/${videoId}/thumb.jpg`, `media/${videoId}/hls/master.m3u8`, `media/${imageId}/original`],
    );
    await h.storage.put(`media/${videoId}/original`, mp4Bytes(4000));
    await h.storage.put(`media/${videoId}/thumb.jpg`, Buffer.from([0xff, 0xd8, 0xff]));
    await h.storage.put(`media/${videoId}/hls/master.m3u8`, Buffer.from('#EXTM3U\n'));
    await h.storage.put(`media/${videoId}/hls/144p/index.m3u8`, Buffer.from('#EXTM3U\n'));
    await h.storage.put(`media/${imageId}/original`, Buffer.concat([PNG_HEADER, Buffer.alloc(71)]));
    await h.query(
      `INSERT INTO video_captions (media_id, language, timeline_id, source_format, vtt, cue_count, revision, uploaded_by) VALUES ($1, 'en', $2, 'vtt', $3, 1, nextval('video_caption_revision'), $4)`,
      [videoId, timelineId, CAPTION_VTT, h.world.owner],
    );
    const created = await h.call('post', '/api/uploads', h.as('editor'))
      .set({ ...tus, 'upload-length': String(20 * 1024 * 1024), 'upload-metadata': tusMetadata({ timelineId, filename: 'u.mp4', filetype: 'video/mp4' }) }).expect(201);
    const uploadPath = created.headers.location as string;
    await h.call('patch', uploadPath, h.as('editor')).set({ ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(mp4Bytes(1024 * 1024)).expect(204);
    const avatarOf = randomUUID();
    await h.call('post', '/api/media/avatar', { userId: avatarOf }).attach('file', await avatarPng(), { filename: 'me.png', contentType: 'image/png' }).expect(201);
    return { timelineId, videoId, imageId, exportId, uploadPath, avatarOf };
  };

  const snapshot = async () => JSON.stringify(await h.query(`SELECT
      (SELECT md5(coalesce(string_agg(m::text, '' ORDER BY id), '')) FROM media m) AS media,
      (SELECT md5(coalesce(string_agg(s::text, '' ORDER BY id), '')) FROM upload_sessions s) AS uploads,
      (SELECT count(*) FROM exports) AS exports,
      (SELECT md5(coalesce(string_agg(a::text, '' ORDER BY user_id), '')) FROM avatars a) AS avatars,
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY media_id, language), '')) FROM video_captions c) AS captions,
      (SELECT count(*) FROM outbox) AS events`));

  beforeAll(async () => {
    h = await startHarness('mediamatrix', { uploads: { maxActivePerUser: 100_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('covers every route the service serves', async () => {
    const doc = (await h.call('get', '/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
    expect([...matrix.map((r) => `${r.method.toUpperCase()} ${r.route}`), ...OWN_DATA_ROUTES].sort()).toEqual(served);
    const writes = served.filter((r) => /^(POST|PATCH|PUT) /.test(r) && !r.startsWith('POST /api/uploads/') && !OWN_DATA_ROUTES.includes(r));
    expect([...new Set(badInput.map((b) => `${b.method.toUpperCase()} ${b.route}`))].sort()).toEqual(writes.sort());
  });

  describe.each(matrix)('$method $route', (row) => {
    const cases = (['private', 'public'] as const).flatMap((state) => CALLERS.map((who, i) => ({ state, who, status: row.expect[state][i]! })));
    const shared: Partial<Record<State, Fixture>> = {};

    it.each(cases)('$who on $state → $status', async ({ state, who, status }: { state: State; who: Who; status: number }) => {
      const f = row.fresh ? await fixture(state) : (shared[state] ??= await fixture(state));
      const before = await snapshot();
      const base = h.call(row.method, row.path(f), h.as(who));
      const res = await (row.send ? await row.send(base, f, h) : base);
      expect(res.status).toBe(status);
      if (status >= 400 && row.method !== 'head') {
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
        expect(await snapshot()).toBe(before);
      }
    });
  });

  describe.each(badInput)('$method $route: $message', ({ method, path, send, status, message }) => {
    it(`→ ${status}, nothing written`, async () => {
      const f = await fixture('private');
      const before = await snapshot();
      const res = await send(h.call(method, path(f), h.as('editor')), f);
      expect(res.status).toBe(status);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
      expect(await snapshot()).toBe(before);
    });
  });

  it('a malformed id is not found (or needs sign-in) without asking the timelines service', async () => {
    const asked = h.asked.length;
    await h.call('get', '/api/videos/not-a-uuid/stream', h.as('viewer')).expect(404);
    await h.call('get', '/api/videos/not-a-uuid/stream', {}).expect(401);
    await h.call('get', '/api/timelines/not-a-uuid/videos', h.as('viewer')).expect(404);
    expect(h.asked.length).toBe(asked);
  });
});
