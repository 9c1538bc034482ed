import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CaptionEvents } from '@timeliner/proto';
import { type MediaHarness, mp4Bytes, startHarness } from './harness.js';

/** Caption tracks through the media API: sanitised WebVTT, signed file URLs, the announced cues, gone with their video. */
describe('video captions', () => {
  let h: MediaHarness;
  beforeAll(async () => {
    h = await startHarness('mediacaptions');
  });
  afterAll(async () => {
    await h.close();
  });

  const video = async (timelineId: string): Promise<string> => {
    const id = randomUUID();
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, 'v.mp4', 'Kitchen', 'video', 4000, 'video/mp4', 'completed', 0, now())`,
      [id, timelineId, h.world.owner, `media/${id}/original`],
    );
    await h.storage.put(`media/${id}/original`, mp4Bytes(4000));
    return id;
  };
  const upload = (videoId: string, language: string, file: string, name = 'c.srt') =>
    h.call('post', `/api/videos/${videoId}/captions`, h.as('editor')).field('language', language).attach('file', Buffer.from(file), { filename: name, contentType: 'application/x-subrip' });

  it('converts an SRT file with a BOM and CRLF, strips hostile markup, and announces the words with their times', async () => {
    const id = await video(h.world.privateTimeline);
    const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\n<script>alert(1)</script><font color="red">Hello</font> <b>there</b>\r\n\r\n2\r\n00:01:02,000 --> 00:01:03,000\r\n<img src=x onerror=alert(1)>marmalade\r\n';
    const res = await upload(id, 'pt-br', srt).expect(201);
    expect(res.body).toEqual(expect.objectContaining({ language: 'pt-BR', cueCount: 2, sourceFormat: 'srt', url: expect.stringMatching(new RegExp(`^/api/videos/${id}/captions/pt-BR\\?v=\\d+&access=`)) }));

    // The signed URL opens the file without the caller's identity (a <track> sends none), even on a private timeline.
    const file = await h.call('get', res.body.url as string).expect(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.text).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nalert(1)Hello <b>there</b>\n\n00:01:02.000 --> 00:01:03.000\nmarmalade\n');
    // Without it, the anonymous caller is asked to sign in; a tampered token is an expired link.
    await h.call('get', `/api/videos/${id}/captions/pt-BR`).expect(401);
    expect((await h.call('get', `/api/videos/${id}/captions/pt-BR?access=x.y`).expect(401)).body.message).toBe('Link expired');

    const [event] = (await h.events(CaptionEvents.CaptionsChanged)).filter((e) => e.mediaId === id);
    expect(event).toEqual(expect.objectContaining({ timelineId: h.world.privateTimeline, language: 'pt-BR', removed: false }));
    expect(event!.cues.map((c) => [c.startMs, c.endMs, c.text])).toEqual([[1000, 2500, 'alert(1)Hello there'], [62000, 63000, 'marmalade']]);
  });

  it('replaces a language with a higher revision, lists one track per language, and removes it', async () => {
    const id = await video(h.world.publicTimeline);
    await upload(id, 'en', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfirst\n', 'a.vtt').expect(201);
    await upload(id, 'en', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nsecond\n\n00:00:03.000 --> 00:00:04.000\nthird\n', 'b.vtt').expect(201);
    await upload(id, 'fr', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\ndeuxième\n', 'c.vtt').expect(201);
    const list = (await h.call('get', `/api/videos/${id}/captions`).expect(200)).body as Array<{ language: string; cueCount: number }>;
    expect(list.map((t) => [t.language, t.cueCount])).toEqual([['en', 2], ['fr', 1]]);
    await h.call('delete', `/api/videos/${id}/captions/en`, h.as('owner')).expect(204);
    await h.call('delete', `/api/videos/${id}/captions/en`, h.as('owner')).expect(404);
    const events = (await h.events(CaptionEvents.CaptionsChanged)).filter((e) => e.mediaId === id && e.language === 'en');
    expect(events.map((e) => [e.removed, e.cues.length])).toEqual([[false, 1], [false, 2], [true, 0]]);
    expect(events[0]!.revision < events[1]!.revision && events[1]!.revision < events[2]!.revision).toBe(true);
  });

  it('deleting the video deletes its captions', async () => {
    const id = await video(h.world.publicTimeline);
    await upload(id, 'en', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nbye\n', 'a.vtt').expect(201);
    await h.call('delete', `/api/videos/${id}`, h.as('owner')).expect(204);
    expect(await h.query('SELECT count(*)::int AS n FROM video_captions WHERE media_id = $1', [id])).toEqual([{ n: 0 }]);
  });

  it('captions belong to videos: an image has none', async () => {
    const image = randomUUID();
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, 'i.png', 'i', 'image', 100, 'image/png', 'completed', 1, now())`,
      [image, h.world.publicTimeline, h.world.owner, `media/${image}/original`],
    );
    await h.call('get', `/api/videos/${image}/captions`, h.as('viewer')).expect(404);
    await upload(image, 'en', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nx\n').expect(404);
  });
});
