import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as tus from 'tus-js-client';
import { type As, type MediaHarness, mp4Bytes, startHarness, tusMetadata } from './harness.js';

const QUOTA = 1_000_000;

interface Usage {
  usedBytes: number;
  reservedBytes: number;
  quotaBytes: number;
  remainingBytes: number;
}

/** A per-person storage quota: usage is what is stored, uploads that would pass it are refused, and what is not needed goes. */
describe('storage quota', () => {
  let h: MediaHarness;
  let editor: As;

  const usage = async (as: As = editor): Promise<Usage> => (await h.call('get', '/api/media/storage', as).expect(200)).body as Usage;
  const createTus = (length: number, name = 'clip.mp4') =>
    h.call('post', '/api/uploads', editor).set({ 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: name, filetype: 'video/mp4' }) });
  const postFile = (size: number, seed = 1) =>
    h.call('post', `/api/timelines/${h.world.privateTimeline}/videos`, editor).attach('video', mp4Bytes(size, seed), { filename: 'form.mp4', contentType: 'video/mp4' });
  const objects = async () => {
    const keys: string[] = [];
    for await (const object of h.storage.list('media/')) keys.push(object.key);
    return keys.sort();
  };

  beforeAll(async () => {
    h = await startHarness('mediaquota', { storageQuotaBytes: QUOTA });
    editor = h.as('editor');
  });
  afterAll(async () => {
    await h.close();
  });

  it('tells a signed-in person their usage and quota; nobody else', async () => {
    expect(await usage()).toEqual({ usedBytes: 0, reservedBytes: 0, quotaBytes: QUOTA, remainingBytes: QUOTA });
    await h.call('get', '/api/media/storage', {}).expect(401);
  });

  it('counts stored originals and reserves the whole length of resumable uploads in progress', async () => {
    const posted = await postFile(300_000).expect(201);
    expect(await usage()).toMatchObject({ usedBytes: 300_000, reservedBytes: 0, remainingBytes: 700_000 });
    const created = await createTus(600_000).expect(201);
    expect(await usage()).toMatchObject({ usedBytes: 300_000, reservedBytes: 600_000, remainingBytes: 100_000 });
    // Finished: reserved becomes used.
    await h.call('patch', created.headers.location as string, editor)
      .set({ 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(mp4Bytes(600_000, 2)).expect(204);
    expect(await usage()).toMatchObject({ usedBytes: 900_000, reservedBytes: 0, remainingBytes: 100_000 });
    // Deleted: the space is back.
    await h.call('delete', `/api/videos/${posted.body.id}`, editor).expect(204);
    expect(await usage()).toMatchObject({ usedBytes: 600_000, remainingBytes: 400_000 });
    // Other people have their own.
    expect(await usage(h.as('owner'))).toMatchObject({ usedBytes: 0, remainingBytes: QUOTA });
  });

  it('refuses a tus creation past the quota with 413, the space left in the body and a header, and starts nothing', async () => {
    const sessions = await h.query('SELECT id FROM upload_sessions');
    const refused = await createTus(500_000).expect(413);
    expect(refused.body).toMatchObject({
      statusCode: 413,
      message: 'Not enough storage space: this file needs 488 KB but only 391 KB of your 977 KB is left',
      remainingBytes: 400_000,
      quotaBytes: QUOTA,
      usedBytes: 600_000,
      neededBytes: 500_000,
    });
    expect(refused.headers['storage-remaining-bytes']).toBe('400000');
    // One byte over is over; exactly what is left fits.
    await createTus(400_001).expect(413);
    expect(await h.query('SELECT id FROM upload_sessions')).toHaveLength(sessions.length);
    const fits = await createTus(400_000).expect(201);
    await h.call('delete', fits.headers.location as string, editor).set('tus-resumable', '1.0.0').expect(204);
  });

  it('tus-js-client surfaces the refusal: status 413, the header and the message', async () => {
    const error = await new Promise<tus.DetailedError>((resolve, reject) => {
      const upload = new tus.Upload(mp4Bytes(500_000) as unknown as Blob, {
        endpoint: `${h.service.url}/api/uploads`,
        metadata: { timelineId: h.world.privateTimeline, filename: 'big.mp4', filetype: 'video/mp4' },
        retryDelays: [],
        onBeforeRequest(req) {
          const url = new URL(req.getURL());
          for (const [k, v] of Object.entries(h.sign(req.getMethod(), url.pathname, editor))) req.setHeader(k, v);
        },
        onSuccess: () => reject(new Error('the upload was accepted')),
        onError: (err) => resolve(err as tus.DetailedError),
      });
      upload.start();
    });
    expect(error.originalResponse?.getStatus()).toBe(413);
    expect(error.originalResponse?.getHeader('Storage-Remaining-Bytes')).toBe('400000');
    expect(error.message).toContain('Not enough storage space');
  });

  it('refuses a multipart upload past the quota with 413 and keeps nothing of it', async () => {
    const before = await objects();
    const media = await h.query('SELECT id FROM media');
    const refused = await postFile(450_000, 3).expect(413);
    expect(refused.body).toMatchObject({ statusCode: 413, remainingBytes: 400_000, quotaBytes: QUOTA });
    expect(refused.body.message).toMatch(/^Not enough storage space: /);
    expect(await objects()).toEqual(before);
    expect(await h.query('SELECT id FROM media')).toHaveLength(media.length);
    expect(await usage()).toMatchObject({ usedBytes: 600_000, reservedBytes: 0 });
  });

  it('gives the space of an abandoned tus upload back once it expires, and the sweep deletes what it stored', async () => {
    const created = await createTus(300_000).expect(201);
    const path = created.headers.location as string;
    await h.call('patch', path, editor).set({ 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(mp4Bytes(100_000)).expect(204);
    expect(await usage()).toMatchObject({ reservedBytes: 300_000, remainingBytes: 100_000 });
    const id = path.split('/').pop()!;
    await h.query(`UPDATE upload_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    expect(await usage()).toMatchObject({ reservedBytes: 0, remainingBytes: 400_000 });
    const swept = await h.service.sweep();
    expect(swept.expired).toBe(1);
    const [session] = await h.query<{ status: string }>('SELECT status FROM upload_sessions WHERE id = $1', [id]);
    expect(session!.status).toBe('expired');
  });

  it('counts what processing stored once it is measured, and deletes the original of failed media after the delay', async () => {
    const done = (await postFile(50_000, 4).expect(201)).body.id as string;
    const failed = (await postFile(40_000, 5).expect(201)).body.id as string;
    expect(await usage()).toMatchObject({ usedBytes: 690_000 });
    // The worker made a rendition and a thumbnail of one; the other failed.
    await h.storage.put(`media/${done}/hls/360p/segment0.ts`, Buffer.alloc(7_000));
    await h.storage.put(`media/${done}/thumbnail.jpg`, Buffer.alloc(500));
    await h.query(`UPDATE media SET status = 'completed', processed_at = now() - interval '2 minutes' WHERE id = $1`, [done]);
    await h.query(`UPDATE media SET status = 'error', error_reason = 'broken', processed_at = now() - interval '1 hour' WHERE id = $1`, [failed]);

    await h.service.sweep();
    expect(await usage()).toMatchObject({ usedBytes: 697_500 });
    // A failed one's original stays for a while (the creator sees why).
    expect(await h.storage.stat(`media/${failed}/original`)).not.toBeNull();

    await h.query(`UPDATE media SET processed_at = now() - interval '73 hours' WHERE id = $1`, [failed]);
    const swept = await h.service.sweep();
    expect(swept.failedOriginalsDeleted).toBe(1);
    expect(await h.storage.stat(`media/${failed}/original`)).toBeNull();
    expect(await usage()).toMatchObject({ usedBytes: 657_500 });
    const [row] = await h.query<{ status: string; original_deleted_at: Date | null }>('SELECT status, original_deleted_at FROM media WHERE id = $1', [failed]);
    expect(row).toMatchObject({ status: 'error', original_deleted_at: expect.any(Date) });
    // A second sweep changes nothing.
    expect((await h.service.sweep()).failedOriginalsDeleted).toBe(0);
    expect(await usage()).toMatchObject({ usedBytes: 657_500 });
  });

  it('keeps the counter equal to a fresh count of what the person has stored', async () => {
    const [fresh] = await h.query<{ bytes: string }>(
      `SELECT sum(CASE WHEN original_deleted_at IS NULL THEN file_size ELSE 0 END + rendition_bytes)::bigint AS bytes FROM media WHERE uploader_id = $1`, [editor.userId],
    );
    expect((await usage()).usedBytes).toBe(Number(fresh!.bytes));
  });
});
