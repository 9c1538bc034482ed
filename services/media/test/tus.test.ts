import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import * as tus from 'tus-js-client';
import { type BusMessage, FsObjectStorage, type MultipartPart } from '@timeliner/platform';
import { MediaEvents, MediaType, Realtime } from '@timeliner/proto';
import { type As, type MediaHarness, mp4Bytes, startHarness, tusMetadata, waitFor } from './harness.js';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function storedHash(h: MediaHarness, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of (await h.storage.get(key)) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

/** tus-js-client as a browser would use it, signing each request as the gateway would. */
function tusOptions(h: MediaHarness, as: As, extra: Partial<tus.UploadOptions> = {}): tus.UploadOptions {
  return {
    endpoint: `${h.service.url}/api/uploads`,
    chunkSize: 3 * MiB,
    retryDelays: [0, 100, 300],
    onBeforeRequest(req) {
      const url = new URL(req.getURL());
      for (const [k, v] of Object.entries(h.sign(req.getMethod(), url.pathname, as))) req.setHeader(k, v);
    },
    ...extra,
  };
}

function runUpload(upload: tus.Upload): Promise<void> {
  return new Promise((resolve, reject) => {
    upload.options.onSuccess = () => resolve();
    upload.options.onError = (err) => reject(err);
    upload.start();
  });
}

describe('resumable uploads (tus 1.0) through tus-js-client', () => {
  let h: MediaHarness;
  const broadcasts: BusMessage[] = [];

  beforeAll(async () => {
    h = await startHarness('mediatus');
    await h.bus.subscribe(Realtime.timelineSubject(h.world.privateTimeline), (m) => void broadcasts.push(m));
  });
  afterAll(async () => {
    await h.close();
  });

  it('advertises tus 1.0.0 with creation, termination and expiration and the 2 GiB limit', async () => {
    const res = await h.call('options', '/api/uploads').expect(204);
    expect(res.headers).toMatchObject({ 'tus-version': '1.0.0', 'tus-extension': 'creation,termination,expiration', 'tus-max-size': '2147483648', 'tus-resumable': '1.0.0' });
  });

  it('uploads 30 MB in 3 MB chunks, aborted half-way and resumed, byte for byte', async () => {
    const data = mp4Bytes(30 * MiB, 7);
    const editor = h.as('editor');
    const metadata = { timelineId: h.world.privateTimeline, filename: 'Holiday clip.mp4', filetype: 'video/mp4' };

    const first = new tus.Upload(data, tusOptions(h, editor, { metadata }));
    await new Promise<void>((resolve, reject) => {
      first.options.onError = reject;
      first.options.onSuccess = () => reject(new Error('should not finish before the abort'));
      first.options.onChunkComplete = (_chunk, accepted) => {
        if (accepted >= 13 * MiB) void first.abort().then(resolve, reject);
      };
      first.start();
    });
    const uploadUrl = first.url!;
    expect(uploadUrl).toMatch(/\/api\/uploads\/[0-9a-f-]{36}$/);
    const sessionId = uploadUrl.split('/').pop()!;

    // The stored offset counts only bytes stored: a whole number of parts plus the tail.
    const head = await h.call('head', `/api/uploads/${sessionId}`, editor).set('tus-resumable', '1.0.0').expect(200);
    expect(head.headers['cache-control']).toBe('no-store');
    expect(Number(head.headers['upload-length'])).toBe(data.length);
    const offset = Number(head.headers['upload-offset']);
    expect(offset).toBeGreaterThanOrEqual(12 * MiB);
    const [session] = await h.query<{ received_chunks: number; tail_size: number; tail_key: string | null; chunks: unknown[] }>('SELECT received_chunks, tail_size, tail_key, chunks FROM upload_sessions WHERE id = $1', [sessionId]);
    expect(session!.received_chunks * 8 * MiB + session!.tail_size).toBe(offset);
    expect(session!.chunks).toHaveLength(session!.received_chunks);
    if (session!.tail_size > 0) expect(session!.tail_key).toMatch(new RegExp(`^uploads/${sessionId}/tail/`));

    // Another person cannot see or continue it.
    await h.call('head', `/api/uploads/${sessionId}`, h.as('owner')).set('tus-resumable', '1.0.0').expect(404);

    const resumed = new tus.Upload(data, tusOptions(h, editor, { metadata, uploadUrl }));
    await runUpload(resumed);

    const [media] = await h.query<{ id: string; filename: string; status: string; media_type: string; mime_type: string; file_size: string; title: string; original_name: string }>(
      'SELECT m.* FROM media m JOIN upload_sessions s ON s.media_id = m.id WHERE s.id = $1', [sessionId],
    );
    expect(media).toMatchObject({ status: 'processing', media_type: 'video', mime_type: 'video/mp4', file_size: String(data.length), title: 'Holiday clip', original_name: 'Holiday clip.mp4' });
    expect(await storedHash(h, media!.filename)).toBe(sha256(data));
    expect((await h.storage.stat(media!.filename))!.size).toBe(data.length);

    // Nothing left behind: no tail, no multipart upload.
    expect(await h.query(`SELECT status, tail_key FROM upload_sessions WHERE id = $1`, [sessionId])).toEqual([{ status: 'completed', tail_key: null }]);
    const leftovers = [];
    for await (const o of h.storage.list(`uploads/${sessionId}/`)) leftovers.push(o);
    expect(leftovers).toEqual([]);
    const pending = [];
    for await (const u of h.storage.listMultipartUploads()) pending.push(u);
    expect(pending).toEqual([]);

    // Event, job and realtime message.
    expect((await h.events(MediaEvents.UploadCompleted)).find((e) => e.mediaId === media!.id)).toMatchObject({
      timelineId: h.world.privateTimeline, uploaderId: h.world.editor, mediaType: MediaType.VIDEO, originalName: 'Holiday clip.mp4', mimeType: 'video/mp4', size: BigInt(data.length),
    });
    expect(h.jobs.jobs.find((j) => j.mediaId === media!.id)).toMatchObject({ timelineId: h.world.privateTimeline, mediaType: MediaType.VIDEO, originalKey: media!.filename, mimeType: 'video/mp4' });
    await waitFor(() => broadcasts.some((m) => JSON.parse(Buffer.from(m.data).toString()).video?.id === media!.id));
    expect(JSON.parse(Buffer.from(broadcasts.find((m) => JSON.parse(Buffer.from(m.data).toString()).video?.id === media!.id)!.data).toString())).toEqual({
      type: 'video_upload_started', timelineId: h.world.privateTimeline, video: { id: media!.id, originalName: 'Holiday clip.mp4' },
    });
    expect(await h.query('SELECT 1 FROM media WHERE id = $1 AND queued_at IS NOT NULL', [media!.id])).toHaveLength(1);

    // The finished upload answers its full length; the list shows the video.
    const done = await h.call('head', `/api/uploads/${sessionId}`, editor).set('tus-resumable', '1.0.0').expect(200);
    expect(done.headers['upload-offset']).toBe(String(data.length));
    const list = await h.call('get', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('viewer')).expect(200);
    expect(list.body.map((v: { id: string }) => v.id)).toContain(media!.id);
  });

  it('uploads a small image in one chunk', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(5000, 7)]);
    const upload = new tus.Upload(png, tusOptions(h, h.as('owner'), { metadata: { timelineId: h.world.publicTimeline, filename: 'pic.png', filetype: 'image/png' } }));
    await runUpload(upload);
    const id = upload.url!.split('/').pop()!;
    const [media] = await h.query<{ media_type: string; mime_type: string; filename: string }>('SELECT m.* FROM media m JOIN upload_sessions s ON s.media_id = m.id WHERE s.id = $1', [id]);
    expect(media).toMatchObject({ media_type: 'image', mime_type: 'image/png' });
    expect(await storedHash(h, media!.filename)).toBe(sha256(png));
  });

  it('refuses content that is not what it claims, and keeps nothing', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'.padEnd(4096, ' '));
    const created = await h.call('post', '/api/uploads', h.as('editor')).set({ 'tus-resumable': '1.0.0', 'upload-length': String(html.length), 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'clip.mp4', filetype: 'video/mp4' }) }).expect(201);
    const path = created.headers.location as string;
    const res = await h.call('patch', path, h.as('editor')).set({ 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(html).expect(415);
    expect(res.body.message).toBe('Invalid file type. Only video and image files are supported. Received: text/html for clip.mp4');
    await h.call('head', path, h.as('editor')).set('tus-resumable', '1.0.0').expect(404);
    const id = path.split('/').pop()!;
    const [session] = await h.query<{ status: string; media_id: string }>('SELECT status, media_id FROM upload_sessions WHERE id = $1', [id]);
    expect(session!.status).toBe('cancelled');
    expect(await h.query('SELECT 1 FROM media WHERE id = $1', [session!.media_id])).toEqual([]);
    const pending = [];
    for await (const u of h.storage.listMultipartUploads({ prefix: `media/${session!.media_id}/` })) pending.push(u);
    expect(pending).toEqual([]);
  });

  it('refuses files over 2 GB with the spec message', async () => {
    const res = await h.call('post', '/api/uploads', h.as('editor')).set({ 'tus-resumable': '1.0.0', 'upload-length': String(2 * 1024 ** 3 + 1), 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'big.mp4', filetype: 'video/mp4' }) }).expect(413);
    expect(res.body.message).toBe('File too large. Maximum size is 2GB.');
    const exactly = await h.call('post', '/api/uploads', h.as('editor')).set({ 'tus-resumable': '1.0.0', 'upload-length': String(2 * 1024 ** 3), 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'big.mp4', filetype: 'video/mp4' }) }).expect(201);
    await h.call('delete', exactly.headers.location as string, h.as('editor')).set('tus-resumable', '1.0.0').expect(204);
  });

  it('answers the protocol errors: 412, 415, 409, 404, 410', async () => {
    const editor = h.as('editor');
    const data = mp4Bytes(1000);
    await h.call('post', '/api/uploads', editor).set({ 'upload-length': '1000', 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'a.mp4' }) }).expect(412);
    const created = await h.call('post', '/api/uploads', editor).set({ 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'a.mp4' }) }).expect(201);
    expect(created.headers['upload-expires']).toBeDefined();
    const path = created.headers.location as string;
    const patch = (headers: Record<string, string>, body: Buffer | string) => h.call('patch', path, editor).set({ 'tus-resumable': '1.0.0', ...headers }).send(body);
    expect((await patch({ 'upload-offset': '0', 'content-type': 'application/octet-stream' }, data)).status).toBe(415);
    expect((await patch({ 'upload-offset': '0', 'content-type': 'application/json' }, '{}')).status).toBe(415);
    expect((await patch({ 'upload-offset': '10', 'content-type': 'application/offset+octet-stream' }, data.subarray(0, 10))).status).toBe(409);
    expect((await patch({ 'upload-offset': 'x', 'content-type': 'application/offset+octet-stream' }, data.subarray(0, 10))).status).toBe(400);
    const ok = await patch({ 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, data.subarray(0, 100)).expect(204);
    expect(ok.headers['upload-offset']).toBe('100');
    expect(new Date(ok.headers['upload-expires']!).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect((await patch({ 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, data.subarray(0, 100))).status).toBe(409);
    expect((await patch({ 'upload-offset': '100', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(901))).status).toBe(413);
    await h.call('head', path, h.as('viewer')).set('tus-resumable', '1.0.0').expect(404);
    await h.call('head', path, {}).set('tus-resumable', '1.0.0').expect(401);
    await h.call('head', '/api/uploads/not-a-uuid', editor).set('tus-resumable', '1.0.0').expect(404);

    const id = path.split('/').pop()!;
    await h.query(`UPDATE upload_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    await h.call('head', path, editor).set('tus-resumable', '1.0.0').expect(410);
    await patch({ 'upload-offset': '100', 'content-type': 'application/offset+octet-stream' }, data.subarray(100)).expect(410);
  });

  it('terminates an upload: the multipart upload and the tail go', async () => {
    const editor = h.as('editor');
    const created = await h.call('post', '/api/uploads', editor).set({ 'tus-resumable': '1.0.0', 'upload-length': String(20 * MiB), 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'b.mov', filetype: 'video/quicktime' }) }).expect(201);
    const path = created.headers.location as string;
    const id = path.split('/').pop()!;
    await h.call('patch', path, editor).set({ 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(mp4Bytes(9 * MiB)).expect(204);
    const [s] = await h.query<{ media_id: string; tail_key: string; received_chunks: number }>('SELECT media_id, tail_key, received_chunks FROM upload_sessions WHERE id = $1', [id]);
    expect(s!.received_chunks).toBe(1);
    expect(await h.storage.stat(s!.tail_key)).not.toBeNull();
    await h.call('delete', path, h.as('owner')).set('tus-resumable', '1.0.0').expect(404);
    await h.call('delete', path, editor).set('tus-resumable', '1.0.0').expect(204);
    expect(await h.storage.stat(s!.tail_key)).toBeNull();
    const pending = [];
    for await (const u of h.storage.listMultipartUploads({ prefix: `media/${s!.media_id}/` })) pending.push(u);
    expect(pending).toEqual([]);
    await h.call('head', path, editor).set('tus-resumable', '1.0.0').expect(404);
  });

  it('sweeps expired sessions (multipart aborted, tail deleted) and orphaned multipart uploads', async () => {
    const editor = h.as('editor');
    const created = await h.call('post', '/api/uploads', editor).set({ 'tus-resumable': '1.0.0', 'upload-length': String(20 * MiB), 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'c.mp4' }) }).expect(201);
    const path = created.headers.location as string;
    const id = path.split('/').pop()!;
    await h.call('patch', path, editor).set({ 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(mp4Bytes(MiB)).expect(204);
    const [s] = await h.query<{ media_id: string; tail_key: string; multipart_id: string }>('SELECT media_id, tail_key, multipart_id FROM upload_sessions WHERE id = $1', [id]);
    const orphan = await h.storage.createMultipart(`media/00000000-0000-4000-8000-000000000001/original`);

    // Not yet expired: the sweep leaves it alone.
    await h.service.sweep();
    expect(await h.query('SELECT status FROM upload_sessions WHERE id = $1', [id])).toEqual([{ status: 'active' }]);
    expect(await h.storage.stat(s!.tail_key)).not.toBeNull();

    const later = new Date(Date.now() + 25 * 3600_000);
    const result = await h.service.sweep(later);
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(result.orphans).toBeGreaterThanOrEqual(1);
    expect(await h.storage.stat(s!.tail_key)).toBeNull();
    const uploads: string[] = [];
    for await (const u of h.storage.listMultipartUploads()) uploads.push(u.uploadId);
    expect(uploads).not.toContain(s!.multipart_id);
    expect(uploads).not.toContain(orphan);
    expect(await h.query('SELECT status FROM upload_sessions WHERE id = $1', [id])).toEqual([{ status: 'expired' }]);
    // On disk too: the fs adapter keeps nothing of either upload.
    expect((await readdir(join(h.storageDir, '.uploads'))).filter((d) => d === s!.multipart_id || d === orphan)).toEqual([]);
    await h.call('head', path, editor).set('tus-resumable', '1.0.0').expect(410);
  });
});

/** Storage whose chosen parts fail once, after a while; it notes when each part starts and fails. */
class FlakyStorage extends FsObjectStorage {
  readonly failOnce = new Set<number>();
  readonly events: string[] = [];
  override async uploadPart(key: string, uploadId: string, partNumber: number, body: Readable | Buffer, size: number): Promise<MultipartPart> {
    this.events.push(`start ${partNumber}`);
    if (this.failOnce.delete(partNumber)) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      this.events.push(`fail ${partNumber}`);
      throw new Error(`disk failed on part ${partNumber}`);
    }
    return super.uploadPart(key, uploadId, partNumber, body, size);
  }
}

describe('a part that fails while the parts after it are being stored', () => {
  let h: MediaHarness;
  let root: string;
  let storage: FlakyStorage;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mediatus-flaky-'));
    storage = new FlakyStorage({ root });
    await storage.init();
    h = await startHarness('mediatusflaky', { storage });
  });
  afterAll(async () => {
    await h.close();
    await rm(root, { recursive: true, force: true });
  });

  it('keeps the offset at the parts before it, and the upload resumes from there byte for byte', async () => {
    const data = mp4Bytes(40 * MiB, 11);
    const editor = h.as('editor');
    const created = await h.call('post', '/api/uploads', editor)
      .set({ 'tus-resumable': '1.0.0', 'upload-length': String(data.length), 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'flaky.mp4', filetype: 'video/mp4' }) })
      .expect(201);
    const path = created.headers.location as string;
    const id = path.split('/').pop()!;
    const patch = (offset: number) => h.call('patch', path, editor).set({ 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });

    storage.failOnce.add(3);
    const failed = await patch(0).send(data);
    expect(failed.status).toBe(500);
    // Part 4 was being stored before part 3 failed; it is not counted all the same.
    expect(storage.events.indexOf('start 4')).toBeGreaterThan(-1);
    expect(storage.events.indexOf('start 4')).toBeLessThan(storage.events.indexOf('fail 3'));
    const head = await h.call('head', path, editor).set('tus-resumable', '1.0.0').expect(200);
    expect(Number(head.headers['upload-offset'])).toBe(16 * MiB);
    const [session] = await h.query<{ received_chunks: number; chunks: Array<{ partNumber: number }> }>('SELECT received_chunks, chunks FROM upload_sessions WHERE id = $1', [id]);
    expect(session!.received_chunks).toBe(2);
    expect(session!.chunks.map((part) => part.partNumber)).toEqual([1, 2]);

    const resumed = await patch(16 * MiB).send(data.subarray(16 * MiB)).expect(204);
    expect(resumed.headers['upload-offset']).toBe(String(data.length));
    const [media] = await h.query<{ filename: string }>('SELECT m.filename FROM media m JOIN upload_sessions s ON s.media_id = m.id WHERE s.id = $1', [id]);
    expect(await storedHash(h, media!.filename)).toBe(sha256(data));
  });
});
