import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { MediaEvents, MediaType } from '@timeliner/proto';
import { type MediaHarness, startHarness } from './harness.js';

interface Item {
  id: string;
  title: string;
  mediaType?: string;
  type?: string;
  altText: string | null;
  altTextDeferred?: boolean;
}

/**
 * Alt text of images and descriptions of videos on real Postgres: set by the owner and editors
 * only, read by whoever may see the item, sanitised, limited, "Add later" remembered, and the
 * studio's list of what is still missing.
 */
describe('alt text and descriptions', () => {
  let h: MediaHarness;
  beforeAll(async () => {
    h = await startHarness('mediaalttext');
  });
  afterAll(async () => {
    await h.close();
  });

  const item = async (timelineId: string, type: 'video' | 'image', position: number, status = 'completed'): Promise<string> => {
    const id = randomUUID();
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 100, $8, $9, $10, now())`,
      [id, timelineId, h.world.owner, `media/${id}/original`, type === 'image' ? 'p.png' : 'v.mp4', `${type} ${position}`, type, type === 'image' ? 'image/png' : 'video/mp4', status, position],
    );
    return id;
  };
  const stored = async (id: string) => (await h.query<{ alt_text: string | null; deferred: boolean }>('SELECT alt_text, alt_text_deferred_at IS NOT NULL AS deferred FROM media WHERE id = $1', [id]))[0]!;
  const setAlt = (id: string, altText: unknown, who: 'owner' | 'editor' | 'viewer' | 'stranger' = 'editor') => h.call('put', `/api/videos/${id}/alt-text`, h.as(who)).send({ altText });

  it('an editor sets the alt text; viewers read it in both lists; the text is stored as plain text', async () => {
    const image = await item(h.world.privateTimeline, 'image', 0);
    const res = await setAlt(image, '  <p onclick="x()">A red <b>kite</b></p>\u202E over\t\tthe   hill\r\n\r\n\r\n\r\nat dusk\u0008 <!-- hidden --> ').expect(200);
    expect(res.body).toEqual(expect.objectContaining({ id: image, altText: 'A red kite over the hill\n\nat dusk', altTextDeferred: false }));
    expect((await stored(image)).alt_text).toBe('A red kite over the hill\n\nat dusk');

    const videos = (await h.call('get', `/api/timelines/${h.world.privateTimeline}/videos?include=images`, h.as('viewer')).expect(200)).body as Item[];
    expect(videos.find((v) => v.id === image)?.altText).toBe('A red kite over the hill\n\nat dusk');
    const media = (await h.call('get', `/api/timelines/${h.world.privateTimeline}/media`, h.as('viewer')).expect(200)).body as Item[];
    expect(media.find((m) => m.id === image)?.altText).toBe('A red kite over the hill\n\nat dusk');
    // Text that only looks like markup stays.
    await setAlt(image, 'Scores: 2 < 3 and I <3 it', 'owner').expect(200);
    expect((await stored(image)).alt_text).toBe('Scores: 2 < 3 and I <3 it');
  });

  it('announces each change with its version (MediaAltTextChanged), so the cards of the timeline follow the description', async () => {
    const video = await item(h.world.privateTimeline, 'video', 5);
    const announced = async () => (await h.events(MediaEvents.MediaAltTextChanged)).filter((e) => e.mediaId === video);
    await setAlt(video, 'A <b>heron</b> lands').expect(200);
    await setAlt(video, 'A heron lands on the water', 'owner').expect(200);
    expect(await announced()).toEqual([
      expect.objectContaining({ mediaId: video, timelineId: h.world.privateTimeline, mediaType: MediaType.VIDEO, altText: 'A heron lands', version: 1n }),
      expect.objectContaining({ mediaId: video, timelineId: h.world.privateTimeline, mediaType: MediaType.VIDEO, altText: 'A heron lands on the water', version: 2n }),
    ]);
    // A refused change announces nothing.
    await setAlt(video, 'x'.repeat(501)).expect(400);
    await setAlt(video, 'Not mine', 'viewer').expect(403);
    expect(await announced()).toHaveLength(2);
  });

  it('only the owner and editors change it: a viewer is refused, a stranger and a signed-out caller learn nothing', async () => {
    const image = await item(h.world.privateTimeline, 'image', 1);
    expect((await setAlt(image, 'Mine now', 'viewer').expect(403)).body.message).toBe('Only the owner and editors can change the media of this timeline');
    await setAlt(image, 'Mine now', 'stranger').expect(404);
    await h.call('put', `/api/videos/${image}/alt-text`, {}).send({ altText: 'x' }).expect(401);
    await h.call('post', `/api/videos/${image}/alt-text/later`, h.as('viewer')).expect(403);
    await h.call('get', `/api/timelines/${h.world.privateTimeline}/media/missing-alt-text`, h.as('viewer')).expect(403);
    await h.call('get', `/api/timelines/${h.world.privateTimeline}/media/missing-alt-text`, h.as('stranger')).expect(404);
    // Nor can a stranger read it in the lists of a private timeline.
    await h.call('get', `/api/timelines/${h.world.privateTimeline}/media`, h.as('stranger')).expect(404);
    expect(await stored(image)).toEqual({ alt_text: null, deferred: false });
    // On a public timeline anyone, signed out too, reads it.
    const open = await item(h.world.publicTimeline, 'image', 0);
    await setAlt(open, 'Harbour at noon', 'owner').expect(200);
    const list = (await h.call('get', `/api/timelines/${h.world.publicTimeline}/media`).expect(200)).body as Item[];
    expect(list.find((m) => m.id === open)?.altText).toBe('Harbour at noon');
  });

  it('limits: 1500 characters for an image, 500 for a video description, counted after cleaning, emoji as one', async () => {
    const image = await item(h.world.privateTimeline, 'image', 2);
    const video = await item(h.world.privateTimeline, 'video', 3);
    expect((await setAlt(image, 'a'.repeat(1501)).expect(400)).body.message).toBe('Alt text must be at most 1500 characters');
    await setAlt(image, `${'a'.repeat(1500)}<i></i>`).expect(200);
    expect((await setAlt(video, '🎬'.repeat(501)).expect(400)).body.message).toBe('The description must be at most 500 characters');
    await setAlt(video, '🎬'.repeat(500)).expect(200);
    expect((await setAlt(video, '<br>').expect(400)).body.message).toBe('The description is required');
    expect((await stored(video)).alt_text).toBe('🎬'.repeat(500));
  });

  it('"Add later" is remembered once per item; the studio list still counts it until the text is added', async () => {
    const timeline = h.world.publicTimeline;
    const before = (await h.call('get', `/api/timelines/${timeline}/media/missing-alt-text`, h.as('owner')).expect(200)).body as { count: number; items: Item[] };
    const video = await item(timeline, 'video', 10);
    const image = await item(timeline, 'image', 11);
    const failed = await item(timeline, 'video', 12, 'error');
    const done = await item(timeline, 'image', 13);
    await setAlt(done, 'Already described').expect(200);

    await h.call('post', `/api/videos/${video}/alt-text/later`, h.as('editor')).expect(204);
    expect(await stored(video)).toEqual({ alt_text: null, deferred: true });
    const listed = (await h.call('get', `/api/timelines/${timeline}/videos?include=images`, h.as('editor')).expect(200)).body as Item[];
    expect(listed.find((v) => v.id === video)?.altTextDeferred).toBe(true);
    expect(listed.find((v) => v.id === image)?.altTextDeferred).toBe(false);

    const missing = (await h.call('get', `/api/timelines/${timeline}/media/missing-alt-text`, h.as('editor')).expect(200)).body as { count: number; items: Item[] };
    expect(missing.count).toBe(before.count + 2);
    expect(missing.items.slice(-2).map((m) => [m.id, m.altTextDeferred])).toEqual([[video, true], [image, false]]);
    expect(missing.items.map((m) => m.id)).not.toContain(failed);
    expect(missing.items.map((m) => m.id)).not.toContain(done);

    // Once described it leaves the list, and "Add later" no longer applies to it.
    await setAlt(video, 'Waves breaking on the pier').expect(200);
    const after = (await h.call('get', `/api/timelines/${timeline}/media/missing-alt-text`, h.as('owner')).expect(200)).body as { count: number; items: Item[] };
    expect(after.count).toBe(before.count + 1);
    expect(after.items.map((m) => m.id)).toEqual([...before.items.map((m) => m.id), image]);
    await h.call('post', `/api/videos/${done}/alt-text/later`, h.as('owner')).expect(204);
    expect(await stored(done)).toEqual({ alt_text: 'Already described', deferred: false });
  });

  it('an unknown or malformed item is not found', async () => {
    await setAlt(randomUUID(), 'x').expect(404);
    await setAlt('not-a-uuid', 'x').expect(404);
    await h.call('post', `/api/videos/${randomUUID()}/alt-text/later`, h.as('owner')).expect(404);
  });
});
