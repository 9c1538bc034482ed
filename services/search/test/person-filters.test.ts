import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { SocialEvents } from '@timeliner/proto';
import { type SearchHarness, startHarness, uniqueWord, waitFor } from './harness.js';

/**
 * Blocks, mutes and muted words in search (issue 28), from the social service's events: a
 * blocked pair never find each other or each other's timelines; a muted account's timelines and
 * timelines with a muted word or hashtag leave the muter's results (until the word expires).
 */
describe('search applies blocks, mutes and muted words', () => {
  let h: SearchHarness;
  const viewer = randomUUID();
  const blocked = randomUUID();
  const blocker = randomUUID();
  const muted = randomUUID();
  const other = randomUUID();
  const word = uniqueWord('ridge');
  let version = 0n;
  const next = () => (version += 1n);

  const timelineIds = async (as: string, q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=timelines`, { userId: as }).expect(200)).body as { timelines: Array<{ id: string; creatorId: string }> }).timelines.map((t) => t.creatorId);
  const userIds = async (as: string, q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=users`, { userId: as }).expect(200)).body as { users: Array<{ id: string }> }).users.map((u) => u.id);
  const hashtags = async (as: string, q: string) =>
    ((await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=hashtags`, { userId: as }).expect(200)).body as { hashtags: Array<{ name: string }> }).hashtags.map((t) => t.name);

  beforeAll(async () => {
    h = await startHarness('searchfilters');
    for (const [id, name] of [[viewer, 'Vera'], [blocked, 'Blake'], [blocker, 'Bruno'], [muted, 'Mona'], [other, 'Otto']] as const) {
      await h.register(`${name.toLowerCase()}_${word}`, `${name} ${word}`, id);
      await h.timeline({ title: `${word} walk by ${name}`, creatorId: id, creatorName: name });
    }
    await h.timeline({ title: `${word} at dawn`, description: `spoilers inside #${word}tag`, creatorId: other, creatorName: 'Otto' });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('finds everyone and everything before any filter', async () => {
    expect(new Set(await timelineIds(viewer, word))).toEqual(new Set([viewer, blocked, blocker, muted, other]));
    expect((await userIds(viewer, word)).length).toBe(5);
  });

  it('leaves a blocked pair out of each other\'s results, either way, within 2 s', async () => {
    const at = timestampFromDate(new Date());
    await h.publish(SocialEvents.BlockChanged, { blockerId: viewer, blockedId: blocked, active: true, version: next(), at });
    await h.publish(SocialEvents.BlockChanged, { blockerId: blocker, blockedId: viewer, active: true, version: next(), at });
    const started = Date.now();
    await waitFor(async () => !(await timelineIds(viewer, word)).includes(blocked) && !(await timelineIds(viewer, word)).includes(blocker), 2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await userIds(viewer, word)).not.toEqual(expect.arrayContaining([blocked]));
    expect(await userIds(viewer, word)).not.toEqual(expect.arrayContaining([blocker]));
    expect(await timelineIds(blocked, word)).not.toContain(viewer);
    expect(await userIds(blocker, word)).not.toContain(viewer);
    // Anyone else still finds them all.
    expect(new Set(await timelineIds(other, word))).toEqual(new Set([viewer, blocked, blocker, muted, other]));
    // Popular timelines too.
    const popular = async (as: string) => ((await h.call('get', '/api/discover/popular/timeline?limit=50', { userId: as }).expect(200)).body as Array<{ creatorId: string }>).map((t) => t.creatorId);
    expect(await popular(viewer)).not.toEqual(expect.arrayContaining([blocked]));
    expect(await popular(viewer)).not.toEqual(expect.arrayContaining([blocker]));
    expect(await popular(other)).toEqual(expect.arrayContaining([blocked, blocker]));
  });

  it('takes a lifted block over the older block, and ignores an older event arriving late', async () => {
    const at = timestampFromDate(new Date());
    const lift = next();
    await h.settle(await h.publish(SocialEvents.BlockChanged, { blockerId: viewer, blockedId: blocked, active: false, version: lift, at }));
    expect(await timelineIds(viewer, word)).toContain(blocked);
    await h.settle(await h.publish(SocialEvents.BlockChanged, { blockerId: viewer, blockedId: blocked, active: true, version: lift - 1n, at }));
    expect(await timelineIds(viewer, word)).toContain(blocked);
    await h.settle(await h.publish(SocialEvents.BlockChanged, { blockerId: viewer, blockedId: blocked, active: true, version: next(), at }));
    expect(await timelineIds(viewer, word)).not.toContain(blocked);
  });

  it("leaves a muted account's timelines out of the muter's results only; the person can still be found", async () => {
    await h.settle(await h.publish(SocialEvents.MuteChanged, { muterId: viewer, mutedId: muted, active: true, version: next(), at: timestampFromDate(new Date()) }));
    expect(await timelineIds(viewer, word)).not.toContain(muted);
    expect(await userIds(viewer, word)).toContain(muted);
    expect(await timelineIds(other, word)).toContain(muted);
  });

  it('leaves out timelines and hashtags with a muted word or hashtag until it expires', async () => {
    const dawn = async () => (await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(`${word} dawn`)}&type=timelines`, { userId: viewer }).expect(200)).body.timelines.length as number;
    expect(await dawn()).toBe(1);
    await h.settle(await h.publish(SocialEvents.MutedWordsChanged, { userId: viewer, words: [{ id: randomUUID(), word: 'Spoilers' }], version: next() }));
    expect(await dawn()).toBe(0);
    expect(await timelineIds(other, `${word} dawn`)).toEqual([other]);
    // A hashtag: the tag itself leaves the hashtag results too.
    await h.settle(await h.publish(SocialEvents.MutedWordsChanged, { userId: viewer, words: [{ id: randomUUID(), word: `#${word}tag`, expiresAt: timestampFromDate(new Date(Date.now() + 3_600_000)) }], version: next() }));
    expect(await dawn()).toBe(0);
    expect(await hashtags(viewer, `#${word}tag`)).toEqual([]);
    expect(await hashtags(other, `#${word}tag`)).toEqual([`${word}tag`]);
    // Expired (the copy's clock: the time it holds has passed): shown again at once.
    await h.query(`UPDATE muted_words SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [viewer]);
    expect(await dawn()).toBe(1);
    expect(await hashtags(viewer, `#${word}tag`)).toEqual([`${word}tag`]);
    // An older list arriving late changes nothing.
    await h.settle(await h.publish(SocialEvents.MutedWordsChanged, { userId: viewer, words: [{ id: randomUUID(), word: 'dawn' }], version: 1n }));
    expect(await dawn()).toBe(1);
  });
});
