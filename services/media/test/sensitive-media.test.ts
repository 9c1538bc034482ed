import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { SocialEvents } from '@timeliner/proto';
import { type MediaHarness, mp4Bytes, startHarness, waitFor } from './harness.js';

/** Issue 28 items 5–6 for single videos and images: marked sensitive by their creators or the desk, hidden by the desk. */
describe('sensitive and hidden media', () => {
  let h: MediaHarness;
  beforeAll(async () => {
    h = await startHarness('mediasensitive');
  });
  afterAll(async () => {
    await h.close();
  });

  const video = async (timelineId: string): Promise<string> => {
    const id = randomUUID();
    await h.query(
      `INSERT INTO media (id, timeline_id, uploader_id, filename, original_name, title, media_type, file_size, mime_type, status, position, uploaded_at)
       VALUES ($1, $2, $3, $4, 'v.mp4', 'Surgery', 'video', 4000, 'video/mp4', 'completed', 0, now())`,
      [id, timelineId, h.world.owner, `media/${id}/original`],
    );
    await h.storage.put(`media/${id}/original`, mp4Bytes(4000));
    return id;
  };
  const listed = async (who: 'owner' | 'editor' | 'stranger', timelineId = h.world.publicTimeline) =>
    (await h.call('get', `/api/timelines/${timelineId}/videos?include=images`, h.as(who)).expect(200)).body as Array<{ id: string; sensitive: boolean; removedByModerators: boolean }>;
  let version = 0n;
  const decide = async (contentId: string, state: { hidden: boolean; sensitive: boolean }, at = (version += 1n), contentType = 'video') => {
    const eventId = await h.publish(SocialEvents.ContentModerated, { actionId: randomUUID(), contentType, contentId, authorId: h.world.owner, ...state, version: at });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1);
  };

  it('is marked sensitive by an editor, which every viewer then reads; others may not, bad input changes nothing', async () => {
    const id = await video(h.world.publicTimeline);
    expect((await listed('stranger')).find((v) => v.id === id)).toMatchObject({ sensitive: false, removedByModerators: false });
    const marked = await h.call('patch', `/api/videos/${id}/sensitive`, h.as('editor')).send({ sensitive: true }).expect(200);
    expect(marked.body).toMatchObject({ id, sensitive: true });
    expect((await listed('stranger')).find((v) => v.id === id)?.sensitive).toBe(true);
    const media = (await h.call('get', `/api/timelines/${h.world.publicTimeline}/media`).expect(200)).body as Array<{ id: string; sensitive: boolean }>;
    expect(media.find((m) => m.id === id)?.sensitive).toBe(true);

    await h.call('patch', `/api/videos/${id}/sensitive`, h.as('stranger')).send({ sensitive: false }).expect(403);
    await h.call('patch', `/api/videos/${id}/sensitive`, h.as('viewer')).send({ sensitive: false }).expect(403);
    await h.call('patch', `/api/videos/${id}/sensitive`).send({ sensitive: false }).expect(401);
    await h.call('patch', `/api/videos/${randomUUID()}/sensitive`, h.as('owner')).send({ sensitive: false }).expect(404);
    for (const sensitive of ['yes', 1, null]) {
      expect((await h.call('patch', `/api/videos/${id}/sensitive`, h.as('owner')).send({ sensitive }).expect(400)).body.message).toBe('Sensitive must be true or false');
    }
    expect((await listed('stranger')).find((v) => v.id === id)?.sensitive).toBe(true);
    await h.call('patch', `/api/videos/${id}/sensitive`, h.as('owner')).send({ sensitive: false }).expect(200);
    expect((await listed('stranger')).find((v) => v.id === id)?.sensitive).toBe(false);
  });

  it("applies the desk's decisions: sensitive stays whatever the creator says; hidden is gone for all but the owner and editors", async () => {
    const id = await video(h.world.publicTimeline);
    await decide(id, { hidden: false, sensitive: true });
    await h.call('patch', `/api/videos/${id}/sensitive`, h.as('owner')).send({ sensitive: false }).expect(200);
    expect((await listed('stranger')).find((v) => v.id === id)?.sensitive).toBe(true);

    await decide(id, { hidden: true, sensitive: true });
    expect((await listed('stranger')).some((v) => v.id === id)).toBe(false);
    expect((await h.call('get', `/api/timelines/${h.world.publicTimeline}/media`).expect(200)).body.some((m: { id: string }) => m.id === id)).toBe(false);
    await h.call('get', `/api/videos/${id}/stream`, h.as('stranger')).expect(404);
    await h.call('get', `/api/videos/${id}/stream`).expect(401);
    for (const who of ['owner', 'editor'] as const) expect((await listed(who)).find((v) => v.id === id)).toMatchObject({ removedByModerators: true });
    await h.call('get', `/api/videos/${id}/stream`, h.as('owner')).expect(200);

    // A late, older decision changes nothing; a newer restore brings it back; another kind of content is not media's.
    await decide(id, { hidden: false, sensitive: false }, 0n);
    expect((await listed('stranger')).some((v) => v.id === id)).toBe(false);
    await decide(id, { hidden: false, sensitive: false }, (version += 1n), 'post');
    await decide(id, { hidden: false, sensitive: false });
    expect((await listed('stranger')).find((v) => v.id === id)).toMatchObject({ sensitive: false, removedByModerators: false });
    await h.call('get', `/api/videos/${id}/stream`, h.as('stranger')).expect(200);
  });
});
