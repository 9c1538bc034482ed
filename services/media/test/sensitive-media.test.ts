import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { serveRpc, type Subscription } from '@timeliner/platform';
import { SocialEvents, SocialRpc } from '@timeliner/proto';
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

  describe('staff reading it in context (the desk\'s "Open in context")', () => {
    // The social service's answer (SocialRpc.StaffRole), served here on the bus as the harness serves the timelines service's.
    const askedSocial: string[] = [];
    let social: Subscription | undefined;
    const socialUp = async () => {
      social = await serveRpc(h.bus, SocialRpc.StaffRole, 'social', async ({ userId }) => {
        askedSocial.push(userId);
        return { role: userId === h.world.moderator ? 'moderator' : '' };
      });
    };
    const socialDown = async () => {
      await social?.unsubscribe();
      social = undefined;
    };
    beforeAll(socialUp);
    afterAll(socialDown);
    const moderator = () => ({ userId: h.world.moderator });
    type Listed = Array<{ id: string; removedByModerators: boolean; streamUrl: string }>;
    const listedBy = async (as: { userId?: string }, timelineId = h.world.publicTimeline) =>
      (await h.call('get', `/api/timelines/${timelineId}/videos?include=images`, as).expect(200)).body as Listed;

    it('shows staff the hidden videos of a timeline, marked and read-only; a stranger, a signed-out caller and (social down) staff do not get them', async () => {
      const shown = await video(h.world.publicTimeline);
      const id = await video(h.world.publicTimeline);
      // Without hidden media, nobody asks the social service.
      askedSocial.length = 0;
      expect((await listedBy(moderator())).some((v) => v.id === id)).toBe(true);
      expect(askedSocial).toEqual([]);

      await decide(id, { hidden: true, sensitive: false });
      const seen = await listedBy(moderator());
      expect(seen.find((v) => v.id === id)).toMatchObject({ removedByModerators: true });
      expect(seen.find((v) => v.id === shown)).toMatchObject({ removedByModerators: false });
      expect((await h.call('get', `/api/timelines/${h.world.publicTimeline}/media`, moderator()).expect(200)).body).toEqual(
        expect.arrayContaining([expect.objectContaining({ id, removedByModerators: true })]),
      );
      await h.call('get', `/api/videos/${id}/stream`, moderator()).expect(200);
      // The signed link in the list opens it without identity headers, while they are staff.
      const link = seen.find((v) => v.id === id)!.streamUrl;
      expect(link).toContain('access=');
      await h.call('get', link).expect(200);
      expect(askedSocial.every((u) => u === h.world.moderator)).toBe(true);

      // Read-only: the changes the owner and editors make stay theirs.
      await h.call('patch', `/api/videos/${id}/sensitive`, moderator()).send({ sensitive: true }).expect(403);
      await h.call('patch', `/api/videos/${id}/title`, moderator()).send({ title: 'Renamed' }).expect(403);
      await h.call('delete', `/api/videos/${id}`, moderator()).expect(403);
      expect((await h.query<{ title: string }>('SELECT title FROM media WHERE id = $1', [id]))[0]?.title).toBe('Surgery');

      // Everyone else as before: a stranger (asked, not staff) and a signed-out caller (not asked) do not see it; the owner does, unasked.
      askedSocial.length = 0;
      expect((await listed('stranger')).some((v) => v.id === id)).toBe(false);
      await h.call('get', `/api/videos/${id}/stream`, h.as('stranger')).expect(404);
      expect((await h.call('get', `/api/timelines/${h.world.publicTimeline}/videos`).expect(200)).body.some((v: { id: string }) => v.id === id)).toBe(false);
      await h.call('get', `/api/videos/${id}/stream`).expect(401);
      expect((await listed('owner')).find((v) => v.id === id)).toMatchObject({ removedByModerators: true });
      expect(askedSocial).toEqual([h.world.stranger, h.world.stranger]);

      // The social service down: staff are told what everyone is (fail closed), at once again after.
      await socialDown();
      expect((await listedBy(moderator())).some((v) => v.id === id)).toBe(false);
      await h.call('get', `/api/videos/${id}/stream`, moderator()).expect(404);
      await h.call('get', link).expect(401);
      await socialUp();
      expect((await listedBy(moderator())).some((v) => v.id === id)).toBe(true);
      await decide(id, { hidden: false, sensitive: false });
    });

    it('shows staff the videos of a timeline the moderators took out, as the timelines service lets them read it in context', async () => {
      const id = await video(h.world.takenOutTimeline);
      const hiddenToo = await video(h.world.takenOutTimeline);
      await decide(hiddenToo, { hidden: true, sensitive: false });
      askedSocial.length = 0;
      const seen = await listedBy(moderator(), h.world.takenOutTimeline);
      expect(seen.map((v) => v.id).sort()).toEqual([id, hiddenToo].sort());
      expect(seen.find((v) => v.id === hiddenToo)?.removedByModerators).toBe(true);
      await h.call('get', `/api/videos/${id}/stream`, moderator()).expect(200);
      await h.call('get', `/api/videos/${hiddenToo}/stream`, moderator()).expect(200);
      // The timelines service already said they are staff: no second question.
      expect(askedSocial).toEqual([]);
      // Nothing to change through it: the timelines service does not let them edit (404, as for a timeline they cannot see).
      await h.call('patch', `/api/videos/${id}/title`, moderator()).send({ title: 'Renamed' }).expect(404);
      await h.call('delete', `/api/videos/${id}`, moderator()).expect(404);
      // Everyone else as before.
      await h.call('get', `/api/timelines/${h.world.takenOutTimeline}/videos`, h.as('stranger')).expect(404);
      await h.call('get', `/api/timelines/${h.world.takenOutTimeline}/videos`).expect(401);
      await h.call('get', `/api/videos/${id}/stream`, h.as('stranger')).expect(404);
      expect((await h.call('get', `/api/timelines/${h.world.takenOutTimeline}/videos`, h.as('owner')).expect(200)).body).toHaveLength(2);
    });
  });
});
