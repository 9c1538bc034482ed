import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type MediaHarness, mp4Bytes, startHarness, tusMetadata } from './harness.js';

const RLO = '\u202E';

/** Names come from clients: whatever they hold, what is stored is shown safely and never a 500. */
describe('stored names', () => {
  let h: MediaHarness;

  beforeAll(async () => {
    h = await startHarness('medianames');
  });
  afterAll(async () => {
    await h.close();
  });

  const createTus = (metadata: Record<string, string>) =>
    h.call('post', '/api/uploads', h.as('editor')).set({ 'tus-resumable': '1.0.0', 'upload-length': '2000', 'upload-metadata': tusMetadata({ timelineId: h.world.privateTimeline, ...metadata }) });

  it('a NUL in the tus file name or type is a 400 that names it, not a 500, and starts nothing', async () => {
    const name = await createTus({ filename: 'cl\u0000ip.mp4', filetype: 'video/mp4' }).expect(400);
    expect(name.body.message).toBe('Upload-Metadata filename: Text must not contain NUL characters');
    const type = await createTus({ filename: 'clip.mp4', filetype: 'video/m\u0000p4' }).expect(400);
    expect(type.body.message).toBe('Upload-Metadata filetype: Text must not contain NUL characters');
    expect(await h.query('SELECT id FROM upload_sessions')).toEqual([]);
  });

  it('other control characters in a tus name or type are dropped from what is stored', async () => {
    const created = await createTus({ filename: 'cl\u0007ip\u001b.mp4', filetype: 'video/\u0085mp4' }).expect(201);
    const id = (created.headers.location as string).split('/').pop()!;
    const [session] = await h.query<{ original_name: string; mime_type: string; metadata: Record<string, string> }>('SELECT original_name, mime_type, metadata FROM upload_sessions WHERE id = $1', [id]);
    expect(session).toMatchObject({ original_name: 'clip.mp4', mime_type: 'video/mp4', metadata: { filename: 'clip.mp4', filetype: 'video/mp4' } });
    await h.call('delete', created.headers.location as string, h.as('editor')).set('tus-resumable', '1.0.0').expect(204);
  });

  it('bidirectional overrides are stripped from names stored by tus, multipart uploads and renames', async () => {
    const created = await createTus({ filename: `${RLO}gnp.mp4`, filetype: 'video/mp4' }).expect(201);
    const path = created.headers.location as string;
    await h.call('patch', path, h.as('editor')).set({ 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }).send(mp4Bytes(2000)).expect(204);
    const id = path.split('/').pop()!;
    const [viaTus] = await h.query<{ original_name: string; title: string }>('SELECT m.original_name, m.title FROM media m JOIN upload_sessions s ON s.media_id = m.id WHERE s.id = $1', [id]);
    expect(viaTus).toEqual({ original_name: 'gnp.mp4', title: 'gnp' });

    const posted = await h.call('post', `/api/timelines/${h.world.privateTimeline}/videos`, h.as('editor'))
      .attach('video', mp4Bytes(3000), { filename: `holiday${RLO}4pm.exe\u2066.mp4`, contentType: 'video/mp4' }).expect(201);
    const [viaForm] = await h.query<{ original_name: string; title: string }>('SELECT original_name, title FROM media WHERE id = $1', [posted.body.id]);
    expect(viaForm).toEqual({ original_name: 'holiday4pm.exe.mp4', title: 'holiday4pm.exe' });

    const renamed = await h.call('patch', `/api/videos/${posted.body.id}/title`, h.as('editor')).send({ title: ` ${RLO}4pm\u202c ` }).expect(200);
    expect(renamed.body.title).toBe('4pm');
    const [row] = await h.query<{ title: string }>('SELECT title FROM media WHERE id = $1', [posted.body.id]);
    expect(row!.title).toBe('4pm');
  });
});
