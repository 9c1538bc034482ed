import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { MediaEvents, MediaType } from '@timeliner/proto';
import { MediaUrlSigner } from '@timeliner/platform';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** videoCount, duration and activity follow the media service's events, each applied once. */
describe('timeline counters from media events', () => {
  let h: TimelinesHarness;
  let owner: Person;

  beforeAll(async () => {
    h = await startHarness('tlmedia');
    owner = await h.register();
  });
  afterAll(async () => {
    await h.close();
  });

  const row = async (id: string) =>
    (await h.query<{ video_count: number; duration: number; last_content_added_at: Date | null; activity_score: number }>(
      'SELECT video_count, duration, last_content_added_at, activity_score FROM timelines WHERE id = $1', [id],
    ))[0]!;
  const applied = async (eventId: string) => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1;
  const deliver: typeof h.publish = async (definition, payload, id) => {
    const eventId = await h.publish(definition, payload, id);
    await h.waitFor(() => applied(eventId));
    return eventId;
  };

  it('counts processed videos once, updates their duration, uncounts deleted ones', async () => {
    const timelineId = (await h.call('post', '/api/timelines', as(owner)).send({ title: 'Counted' }).expect(201)).body.id as string;
    const before = await row(timelineId);
    const a = randomUUID();
    const b = randomUUID();

    const first = await h.publish(MediaEvents.VideoProcessed, { mediaId: a, timelineId, duration: 10.4 });
    await h.waitFor(() => applied(first));
    // The same event again (redelivery) changes nothing.
    await h.publish(MediaEvents.VideoProcessed, { mediaId: a, timelineId, duration: 10.4 }, first);
    // The same video announced again (all renditions ready): duration updated, not added.
    await deliver(MediaEvents.VideoProcessed, { mediaId: a, timelineId, duration: 12.4 });
    await deliver(MediaEvents.VideoProcessed, { mediaId: b, timelineId, duration: 5.3 });
    const after = await row(timelineId);
    expect(after).toMatchObject({ video_count: 2, duration: 18 });
    expect(after.last_content_added_at).not.toBeNull();
    expect(after.activity_score).toBeGreaterThan(before.activity_score);
    const timeline = await h.call('get', `/api/timelines/${timelineId}`, as(owner)).expect(200);
    expect(timeline.body).toMatchObject({ videoCount: 2, duration: 18 });

    // A deleted video that was never processed is not uncounted; a processed one is, once.
    await deliver(MediaEvents.MediaDeleted, { mediaId: randomUUID(), timelineId, mediaType: MediaType.VIDEO, duration: 0 });
    expect(await row(timelineId)).toMatchObject({ video_count: 2, duration: 18 });
    const gone = await h.publish(MediaEvents.MediaDeleted, { mediaId: a, timelineId, mediaType: MediaType.VIDEO, duration: 12.4 });
    await h.waitFor(() => applied(gone));
    await h.publish(MediaEvents.MediaDeleted, { mediaId: a, timelineId, mediaType: MediaType.VIDEO, duration: 12.4 }, gone);
    await deliver(MediaEvents.MediaDeleted, { mediaId: a, timelineId, mediaType: MediaType.VIDEO, duration: 12.4 });
    expect(await row(timelineId)).toMatchObject({ video_count: 1, duration: 5 });
  });

  it('counts processed images apart from videos, once each, and uncounts deleted ones', async () => {
    const timelineId = (await h.call('post', '/api/timelines', as(owner)).send({ title: 'Pictures too' }).expect(201)).body.id as string;
    const [photo, other, clip] = [randomUUID(), randomUUID(), randomUUID()];
    await deliver(MediaEvents.VideoProcessed, { mediaId: clip, timelineId, duration: 4 });
    const first = await deliver(MediaEvents.ImageProcessed, { mediaId: photo, timelineId, width: 320, height: 180 });
    // Redelivered, or the same image announced again: still one.
    await h.publish(MediaEvents.ImageProcessed, { mediaId: photo, timelineId, width: 320, height: 180 }, first);
    await deliver(MediaEvents.ImageProcessed, { mediaId: photo, timelineId, width: 320, height: 180 });
    await deliver(MediaEvents.ImageProcessed, { mediaId: other, timelineId, width: 64, height: 64 });
    const counts = async () => {
      const one = (await h.call('get', `/api/timelines/${timelineId}`, as(owner)).expect(200)).body as { videoCount: number; imageCount: number };
      const mine = ((await h.call('get', '/api/my-timelines', as(owner)).expect(200)).body as Array<{ id: string; videoCount: number; imageCount: number }>).find((t) => t.id === timelineId);
      expect(mine).toMatchObject({ videoCount: one.videoCount, imageCount: one.imageCount });
      return { videoCount: one.videoCount, imageCount: one.imageCount };
    };
    expect(await counts()).toEqual({ videoCount: 1, imageCount: 2 });

    // A deleted image that was never counted changes nothing; a counted one is uncounted once.
    await deliver(MediaEvents.MediaDeleted, { mediaId: randomUUID(), timelineId, mediaType: MediaType.IMAGE, duration: 0 });
    expect(await counts()).toEqual({ videoCount: 1, imageCount: 2 });
    await deliver(MediaEvents.MediaDeleted, { mediaId: photo, timelineId, mediaType: MediaType.IMAGE, duration: 0 });
    await deliver(MediaEvents.MediaDeleted, { mediaId: photo, timelineId, mediaType: MediaType.IMAGE, duration: 0 });
    expect(await counts()).toEqual({ videoCount: 1, imageCount: 1 });
    // An image of a timeline deleted meanwhile is not kept.
    await deliver(MediaEvents.ImageProcessed, { mediaId: randomUUID(), timelineId: randomUUID(), width: 1, height: 1 });
    expect(await h.query('SELECT 1 FROM timeline_images WHERE timeline_id NOT IN (SELECT id FROM timelines)')).toEqual([]);
  });

  it("gives the timeline the thumbnail of its first processed video, in the studio list too, signed as the media service checks", async () => {
    const timelineId = (await h.call('post', '/api/timelines', as(owner)).send({ title: 'With a cover' }).expect(201)).body.id as string;
    expect((await h.call('get', `/api/timelines/${timelineId}`, as(owner)).expect(200)).body.thumbnailUrl).toBeNull();
    const [a, b] = [randomUUID(), randomUUID()].sort();
    await deliver(MediaEvents.VideoProcessed, { mediaId: b!, timelineId, duration: 3 });
    await deliver(MediaEvents.VideoProcessed, { mediaId: a!, timelineId, duration: 3 });
    const cover = async () => {
      const one = (await h.call('get', `/api/timelines/${timelineId}`, as(owner)).expect(200)).body.thumbnailUrl as string | null;
      const mine = (await h.call('get', '/api/my-timelines', as(owner)).expect(200)).body as Array<{ id: string; thumbnailUrl: string | null }>;
      expect(mine.find((t) => t.id === timelineId)?.thumbnailUrl).toBe(one);
      // An <img src> loads it without the session: the URL carries a token for that video only.
      const [path, query] = one!.split('?') as [string, string];
      const mediaId = /^\/api\/videos\/([0-9a-f-]+)\/thumbnail$/.exec(path)![1]!;
      const token = new URLSearchParams(query).get('access')!;
      expect(signer.verify(mediaId, token)).toBeGreaterThan(3600 - 5);
      expect(signer.verify(mediaId === a ? b! : a!, token)).toBeNull();
      return path;
    };
    const signer = new MediaUrlSigner(h.secret);
    // The first counted, until the media service announces another order.
    expect(await cover()).toBe(`/api/videos/${b}/thumbnail`);
    await deliver(MediaEvents.MediaReordered, { timelineId, mediaIds: [a!, b!] });
    expect(await cover()).toBe(`/api/videos/${a}/thumbnail`);
    await deliver(MediaEvents.MediaDeleted, { mediaId: a!, timelineId, mediaType: MediaType.VIDEO, duration: 3 });
    expect(await cover()).toBe(`/api/videos/${b}/thumbnail`);
  });

  it('ignores events about timelines that no longer exist', async () => {
    const id = await h.publish(MediaEvents.VideoProcessed, { mediaId: randomUUID(), timelineId: randomUUID(), duration: 3 });
    await h.waitFor(() => applied(id));
    expect(await h.query('SELECT 1 FROM timeline_videos WHERE timeline_id NOT IN (SELECT id FROM timelines)')).toEqual([]);
  });
});
