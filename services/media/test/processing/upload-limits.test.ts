import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type MediaHarness, mp4Bytes, startHarness, tusMetadata } from '../harness.js';

/**
 * Uploads counted per person: with 20 media waiting for processing (the default of
 * MEDIA_MAX_PENDING_PER_PERSON), a person's next upload is refused with 429 and a sentence that
 * says why, by both upload routes (simple and tus), before anything is stored; other people are
 * not affected, and the person may upload again once one of theirs is done.
 */
describe('uploads: a limit per person on media waiting for processing', () => {
  let h: MediaHarness;
  const MESSAGE = 'You have 20 uploads waiting to be processed, the most at once; upload more when some are ready';

  beforeAll(async () => {
    h = await startHarness('mediauploadlimits');
  });
  afterAll(async () => {
    await h.close();
  });

  const simple = (who: 'editor' | 'owner') =>
    h.call('post', `/api/timelines/${h.world.privateTimeline}/videos`, h.as(who)).attach('video', mp4Bytes(64 * 1024, 7), { filename: 'clip.mp4', contentType: 'video/mp4' });
  const tus = (who: 'editor' | 'owner') =>
    h.call('post', '/api/uploads', h.as(who)).set({ 'tus-resumable': '1.0.0', 'upload-length': '65536', 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, filename: 'clip.mp4', filetype: 'video/mp4' }) });

  it('refuses the 21st waiting upload with 429 on both routes, stores nothing, and lets others upload', async () => {
    await simple('editor').expect(201);
    // 19 more waiting (as if uploaded a moment ago and not processed yet).
    for (let i = 0; i < 19; i++) {
      const id = randomUUID();
      await h.query(
        `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
         VALUES ($1, $2, $3, $4, 'clip.mp4', 'clip', 'video', 1, 'video/mp4', 'processing', 100 + $5, now())`,
        [id, h.world.privateTimeline, h.world.editor, `media/${id}/original`, i],
      );
    }
    const before = (await h.query<{ n: number }>(`SELECT count(*)::int AS n FROM media`))[0]!.n;
    const sessions = await h.query(`SELECT id FROM upload_sessions`);

    const refused = await simple('editor').expect(429);
    expect(refused.body.message).toBe(MESSAGE);
    expect(refused.headers['retry-after']).toBe('60');
    const refusedTus = await tus('editor').expect(429);
    expect(refusedTus.body.message).toBe(MESSAGE);
    const after = (await h.query<{ n: number }>(`SELECT count(*)::int AS n FROM media`))[0]!.n;
    expect(after).toBe(before);
    expect(await h.query(`SELECT id FROM upload_sessions`)).toHaveLength(sessions.length);

    // Someone else's uploads are theirs to count.
    await simple('owner').expect(201);
    await tus('owner').expect(201);

    // One of the editor's is done: room for one more.
    await h.query(`UPDATE media SET status = 'completed' WHERE id = (SELECT id FROM media WHERE uploader_id = $1 AND status = 'processing' LIMIT 1)`, [h.world.editor]);
    await tus('editor').expect(201);
  });
});
