import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { TimelinesEvents } from '@timeliner/proto';
import { type SearchHarness, startHarness } from './harness.js';

/** Issue 28 item 6: a sensitive timeline's result says so (from its snapshot), so its card is covered. */
describe('sensitive timelines in search', () => {
  let h: SearchHarness;
  beforeAll(async () => {
    h = await startHarness('searchsensitive');
  });
  afterAll(async () => {
    await h.close();
  });

  const results = async (q: string) => ((await h.call('get', `/api/search/enhanced?q=${q}&type=timelines`).expect(200)).body.timelines as Array<{ id: string; sensitive: boolean }>);

  it('carries sensitive from the newest snapshot into every timeline result', async () => {
    const word = `gorge${randomUUID().slice(0, 6)}`;
    const plain = await h.timeline({ title: `${word} walk` });
    const marked = await h.timeline({ title: `${word} surgery` });
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, { ...marked, revision: marked.revision + 1n, sensitive: true }));
    const found = await results(word);
    expect(found.find((t) => t.id === marked.timelineId)?.sensitive).toBe(true);
    expect(found.find((t) => t.id === plain.timelineId)?.sensitive).toBe(false);
    // An older snapshot arriving late changes nothing.
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, { ...marked, revision: marked.revision, sensitive: false }));
    expect((await results(word)).find((t) => t.id === marked.timelineId)?.sensitive).toBe(true);
  });
});
