import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { TimelinesEvents } from '@timeliner/proto';
import { type SearchHarness, startHarness, uniqueWord } from './harness.js';

const DAY = 86_400_000;

/** Popular timelines and trending hashtags. Each describe has a database of its own: both read everything listed. */
describe('popular timelines', () => {
  let h: SearchHarness;
  beforeAll(async () => {
    h = await startHarness('searchpop');
  });
  afterAll(async () => {
    await h.close();
  });

  const popular = async (limit = 12): Promise<string[]> => ((await h.call('get', `/api/discover/popular/timeline?limit=${limit}`).expect(200)).body as Array<{ id: string }>).map((t) => t.id);

  it('ranks by engagement gained lately, older days counting less, and shows each creator once in the first page', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    // Engagement gained today versus the same gained five days ago.
    const fresh = await h.timeline({ title: 'Fresh', creatorId: bob });
    await h.timeline({ id: fresh.timelineId, creatorId: bob, title: 'Fresh', views: 100 });
    const stale = await h.timeline({ title: 'Stale', creatorId: randomUUID() }, { occurredAt: new Date(Date.now() - 5 * DAY) });
    await h.timeline({ id: stale.timelineId, creatorId: stale.creatorId, title: 'Stale', views: 150 }, { occurredAt: new Date(Date.now() - 5 * DAY) });
    // Ada has the two most engaging timelines: her second waits until everyone's first is shown.
    const adaFirst = await h.timeline({ title: 'Ada one', creatorId: ada });
    await h.timeline({ id: adaFirst.timelineId, creatorId: ada, title: 'Ada one', views: 1000, likesCount: 50 });
    const adaSecond = await h.timeline({ title: 'Ada two', creatorId: ada });
    await h.timeline({ id: adaSecond.timelineId, creatorId: ada, title: 'Ada two', views: 900 });

    expect(await popular()).toEqual([adaFirst.timelineId, fresh.timelineId, stale.timelineId, adaSecond.timelineId]);
    expect(await popular(2)).toEqual([adaFirst.timelineId, fresh.timelineId]);

    // Deleted or made private: gone from popular at once.
    await h.deleteTimeline(adaFirst.timelineId, ada);
    expect(await popular()).toEqual([adaSecond.timelineId, fresh.timelineId, stale.timelineId]);
  });

  it('answers the cards the home page shows', async () => {
    const [card] = (await h.call('get', '/api/discover/popular/timeline?limit=1').expect(200)).body as Array<Record<string, unknown>>;
    expect(Object.keys(card!).sort()).toEqual(
      ['activityScore', 'commentsCount', 'coverMediaId', 'createdAt', 'creator', 'creatorId', 'creatorName', 'description', 'duration', 'hashtags', 'id', 'lastActivityAt', 'likesCount', 'status', 'title', 'updatedAt', 'videoCount', 'views', 'visibility'].sort(),
    );
  });

  it('a redelivered snapshot adds no engagement', async () => {
    const t = await h.timeline({ title: 'Counted once' });
    const id = randomUUID();
    const next = { ...t, views: 70n, revision: 2n };
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, next, { id }));
    await h.publish(TimelinesEvents.TimelineSnapshot, next, { id });
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, next));
    expect(await h.query('SELECT engagement FROM timeline_engagement WHERE timeline_id = $1', [t.timelineId])).toEqual([{ engagement: 70 }]);
  });
});

describe('trending hashtags', () => {
  let h: SearchHarness;
  beforeAll(async () => {
    h = await startHarness('searchtrend');
  });
  afterAll(async () => {
    await h.close();
  });

  const trending = async (): Promise<Array<{ name: string; usageCount: number }>> => (await h.call('get', '/api/hashtags/trending?limit=10').expect(200)).body;
  const people = (n: number) => Array.from({ length: n }, () => randomUUID());

  it('needs at least 3 distinct people today: one account posting a tag 20 times does not trend', async () => {
    const spam = uniqueWord('spam');
    const spammer = randomUUID();
    for (let i = 0; i < 20; i++) await h.post(spammer, [spam]);
    const pair = uniqueWord('pair');
    for (const user of people(2)) await h.post(user, [pair]);
    const names = (await trending()).map((t) => t.name);
    expect(names).not.toContain(spam);
    expect(names).not.toContain(pair);
  });

  it('ranks people using a tag today against its usual daily number', async () => {
    // Always busy: 6 people today, but 6 a day all week.
    const usual = uniqueWord('usual');
    for (let day = 1; day <= 7; day++) for (const user of people(6)) await h.post(user, [usual], { createdAt: new Date(Date.now() - day * DAY - 3_600_000) });
    for (const user of people(6)) await h.post(user, [usual]);
    // Taking off: 4 people today, none before.
    const rising = uniqueWord('rising');
    for (const user of people(4)) await h.post(user, [rising]);
    // A timeline's tag counts for its creator.
    const creators = people(3);
    const viaTimelines = uniqueWord('timelinetag');
    for (const creatorId of creators) await h.timeline({ title: `Walk #${viaTimelines}`, creatorId });

    const list = await trending();
    const names = list.map((t) => t.name);
    expect(names.indexOf(rising)).toBeLessThan(names.indexOf(usual));
    expect(names.indexOf(viaTimelines)).toBeLessThan(names.indexOf(usual));
    expect(list.find((t) => t.name === usual)).toEqual({ name: usual, usageCount: 48 });
    expect(list.find((t) => t.name === rising)).toEqual({ name: rising, usageCount: 4 });
  });

  it('uses from last week alone do not trend today', async () => {
    const old = uniqueWord('old');
    for (const user of people(5)) await h.post(user, [old], { createdAt: new Date(Date.now() - 3 * DAY) });
    expect((await trending()).map((t) => t.name)).not.toContain(old);
  });
});
