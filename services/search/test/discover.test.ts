import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { TimelinesEvents, Visibility } from '@timeliner/proto';
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

  it('ranks by engagement gained lately, older days counting less, and shows each creator once in the first 12', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    // Engagement gained today versus the same gained five days ago.
    const fresh = await h.timeline({ title: 'Fresh', creatorId: bob });
    await h.timeline({ id: fresh.timelineId, creatorId: bob, title: 'Fresh', views: 100 });
    const stale = await h.timeline({ title: 'Stale', creatorId: randomUUID() }, { occurredAt: new Date(Date.now() - 5 * DAY) });
    await h.timeline({ id: stale.timelineId, creatorId: stale.creatorId, title: 'Stale', views: 150 }, { occurredAt: new Date(Date.now() - 5 * DAY) });
    // Ada has the two most engaging timelines: her second is not among the first 12 places, which
    // fewer than 12 creators leave at one timeline each.
    const adaFirst = await h.timeline({ title: 'Ada one', creatorId: ada });
    await h.timeline({ id: adaFirst.timelineId, creatorId: ada, title: 'Ada one', views: 1000, likesCount: 50 });
    const adaSecond = await h.timeline({ title: 'Ada two', creatorId: ada });
    await h.timeline({ id: adaSecond.timelineId, creatorId: ada, title: 'Ada two', views: 900 });

    expect(await popular()).toEqual([adaFirst.timelineId, fresh.timelineId, stale.timelineId]);
    expect(await popular(50)).toEqual([adaFirst.timelineId, fresh.timelineId, stale.timelineId]);
    expect(await popular(2)).toEqual([adaFirst.timelineId, fresh.timelineId]);

    // Deleted or made private: gone from popular at once.
    await h.deleteTimeline(adaFirst.timelineId, ada);
    expect(await popular()).toEqual([adaSecond.timelineId, fresh.timelineId, stale.timelineId]);
  });

  it('with 12 creators or more, the first 12 are one per creator and the rest follow', async () => {
    // Ten more creators with one timeline each (13 creators in all with the test before), and
    // Bob's second timeline, more engaging than every other creator's first.
    const others = [];
    for (let i = 0; i < 10; i++) {
      const t = await h.timeline({ title: `Other ${i}`, creatorId: randomUUID() });
      others.push((await h.timeline({ id: t.timelineId, creatorId: t.creatorId, title: `Other ${i}`, views: 10 + i })).timelineId);
    }
    const bob = (await h.query<{ creator_id: string }>(`SELECT creator_id FROM timelines WHERE title = 'Fresh'`))[0]!.creator_id;
    const bobSecond = await h.timeline({ title: 'Fresh again', creatorId: bob });
    await h.timeline({ id: bobSecond.timelineId, creatorId: bob, title: 'Fresh again', views: 95 });

    const list = await popular(50);
    const creators = await h.query<{ id: string; creator_id: string }>('SELECT id, creator_id FROM timelines WHERE id = ANY($1)', [list]);
    const creatorOf = new Map(creators.map((c) => [c.id, c.creator_id]));
    const first12 = list.slice(0, 12).map((id) => creatorOf.get(id));
    expect(new Set(first12).size).toBe(12);
    expect(list.slice(0, 12)).not.toContain(bobSecond.timelineId);
    expect(list).toContain(bobSecond.timelineId);
    expect(list.length).toBe(14);
    expect((await popular(12)).map((id) => creatorOf.get(id))).toEqual(first12);
    expect(others.every((id) => list.includes(id))).toBe(true);
  });

  it('answers the cards the home page shows', async () => {
    const [card] = (await h.call('get', '/api/discover/popular/timeline?limit=1').expect(200)).body as Array<Record<string, unknown>>;
    expect(Object.keys(card!).sort()).toEqual(
      ['activityScore', 'commentsCount', 'coverAltText', 'coverMediaId', 'createdAt', 'creator', 'creatorId', 'creatorName', 'description', 'duration', 'hashtags', 'id', 'lastActivityAt', 'likesCount', 'sensitive', 'status', 'title', 'updatedAt', 'videoCount', 'views', 'visibility'].sort(),
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

  it('one account posting a tag 20 times counts as one person: below tags more people use, never above a trend', async () => {
    const spam = uniqueWord('spam');
    const spammer = randomUUID();
    for (let i = 0; i < 20; i++) await h.post(spammer, [spam]);
    const pair = uniqueWord('pair');
    for (const user of people(2)) await h.post(user, [pair]);
    const trend = uniqueWord('trend');
    for (const user of people(3)) await h.post(user, [trend]);
    const names = (await trending()).map((t) => t.name);
    expect(names.indexOf(trend)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(trend)).toBeLessThan(names.indexOf(pair));
    expect(names.indexOf(pair)).toBeLessThan(names.indexOf(spam));
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

  it('uses from last week alone do not trend today: tags in use today come first', async () => {
    const old = uniqueWord('old');
    for (const user of people(5)) await h.post(user, [old], { createdAt: new Date(Date.now() - 3 * DAY) });
    const fresh = uniqueWord('fresh');
    await h.post(randomUUID(), [fresh]);
    const names = (await h.call('get', '/api/hashtags/trending?limit=50').expect(200)).body.map((t: { name: string }) => t.name);
    expect(names.indexOf(fresh)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(old) === -1 || names.indexOf(old) > names.indexOf(fresh)).toBe(true);
  });
});

/**
 * A small product: one creator tags timelines, two viewers tag posts, some of it days ago. Its
 * tags in use are what trends (none of them reaches three people in a day).
 */
describe('trending hashtags on a small product', () => {
  let h: SearchHarness;
  beforeAll(async () => {
    h = await startHarness('searchtrendsmall');
  });
  afterAll(async () => {
    await h.close();
  });

  it("shows the tags in use: today's by how many people use them, then the most used", async () => {
    const creator = randomUUID();
    const [ana, ben] = [randomUUID(), randomUUID()];
    await h.timeline({ title: 'Beach days', description: 'Sun and sand #summer #travel', creatorId: creator }, { occurredAt: new Date(Date.now() - 3 * DAY) });
    await h.timeline({ title: 'Coffee', description: 'Every morning #daily', creatorId: creator }, { occurredAt: new Date(Date.now() - 2 * DAY) });
    await h.timeline({ title: 'Draft', description: '#secret', creatorId: creator, visibility: Visibility.PRIVATE });
    await h.post(ana, ['summer']);
    await h.post(ben, ['summer', 'daily']);
    await h.post(ana, ['travel'], { createdAt: new Date(Date.now() - 4 * DAY) });

    const list = (await h.call('get', '/api/hashtags/trending?limit=10').expect(200)).body as Array<{ name: string; usageCount: number }>;
    expect(list).toEqual([
      // Two people today.
      { name: 'summer', usageCount: 3 },
      // One person today.
      { name: 'daily', usageCount: 2 },
      // Not today; in use.
      { name: 'travel', usageCount: 2 },
    ]);
    expect((await h.call('get', '/api/hashtags/trending?limit=1').expect(200)).body).toEqual([{ name: 'summer', usageCount: 3 }]);
  });
});
