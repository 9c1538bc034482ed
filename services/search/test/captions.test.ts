import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CaptionEvents, MediaEvents, MediaType, Visibility } from '@timeliner/proto';
import { type SearchHarness, startHarness, uniqueWord } from './harness.js';

/** Words spoken in videos (their captions, from media's events) find the timeline, with the cue's time. */
describe('search: words spoken in videos', () => {
  let h: SearchHarness;
  beforeAll(async () => {
    h = await startHarness('searchcap');
  });
  afterAll(async () => {
    await h.close();
  });

  const search = async (q: string) =>
    (await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=timelines`).expect(200)).body.timelines as Array<{ id: string; spoken?: Record<string, unknown> }>;
  const captions = async (timelineId: string, mediaId: string, revision: bigint, cues: Array<[number, number, string]>, language = 'en', removed = false) =>
    h.settle(await h.publish(CaptionEvents.CaptionsChanged, { mediaId, timelineId, language, revision, removed, cues: cues.map(([startMs, endMs, text]) => ({ startMs, endMs, text })) }));

  it('a query matching a spoken word finds the timeline with the video, the cue and its time', async () => {
    const word = uniqueWord('marmalade');
    const t = await h.timeline({ title: 'Breakfast stories' });
    const mediaId = randomUUID();
    await captions(t.timelineId, mediaId, 1n, [[1_000, 2_500, 'Good morning everyone'], [62_000, 64_750, `Today we make ${word} from oranges`]]);
    expect(await search(word)).toEqual([
      expect.objectContaining({ id: t.timelineId, title: 'Breakfast stories', spoken: { videoId: mediaId, language: 'en', startTime: 62, endTime: 64.75, text: `Today we make ${word} from oranges` } }),
    ]);
    // Accents and case do not matter, as for every other word.
    expect((await search(`${word.toUpperCase()} ORANGES`)).map((x) => x.id)).toEqual([t.timelineId]);
    // A timeline found by its own words says where they are spoken too.
    const titled = await h.timeline({ title: `${word} recipes` });
    await captions(titled.timelineId, randomUUID(), 1n, [[5_000, 6_000, `${word} again`]]);
    const both = await search(word);
    expect(both[0]).toEqual(expect.objectContaining({ id: titled.timelineId, spoken: expect.objectContaining({ startTime: 5 }) }));
    expect(both.map((x) => x.id)).toContain(t.timelineId);
  });

  it('a newer track replaces the words, an older or removed one leaves nothing behind', async () => {
    const before = uniqueWord('quince');
    const after = uniqueWord('damson');
    const t = await h.timeline({ title: 'Orchard' });
    const mediaId = randomUUID();
    await captions(t.timelineId, mediaId, 5n, [[0, 1_000, `${before} tree`]]);
    await captions(t.timelineId, mediaId, 7n, [[0, 1_000, `${after} tree`]]);
    expect(await search(before)).toEqual([]);
    expect((await search(after)).map((x) => x.id)).toEqual([t.timelineId]);
    await captions(t.timelineId, mediaId, 6n, [[0, 1_000, `${before} late`]]);
    expect(await search(before)).toEqual([]);
    await captions(t.timelineId, mediaId, 8n, [], 'en', true);
    expect(await search(after)).toEqual([]);
  });

  it('the words of a deleted video and of a timeline not listed are never answered', async () => {
    const word = uniqueWord('sorrel');
    const hidden = await h.timeline({ title: 'Private garden', visibility: Visibility.PRIVATE });
    await captions(hidden.timelineId, randomUUID(), 1n, [[0, 1_000, `${word} soup`]]);
    expect(await search(word)).toEqual([]);

    const t = await h.timeline({ title: 'Kitchen' });
    const mediaId = randomUUID();
    await captions(t.timelineId, mediaId, 1n, [[0, 1_000, `${word} soup`]]);
    expect((await search(word)).map((x) => x.id)).toEqual([t.timelineId]);
    await h.settle(await h.publish(MediaEvents.MediaDeleted, { mediaId, timelineId: t.timelineId, mediaType: MediaType.VIDEO, duration: 10 }));
    expect(await search(word)).toEqual([]);
    // A late track event of the deleted video brings nothing back.
    await captions(t.timelineId, mediaId, 2n, [[0, 1_000, `${word} again`]]);
    expect(await search(word)).toEqual([]);
  });
});
