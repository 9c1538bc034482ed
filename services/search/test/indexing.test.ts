import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { AuthEvents, SocialEvents, TimelinesEvents, TimelineStatus, Visibility } from '@timeliner/proto';
import { type SearchHarness, startHarness, uniqueWord, waitFor } from './harness.js';

/** The read model follows the events: timelines, people, hashtags; redelivery and lateness change nothing. */
describe('search read model from events', () => {
  let h: SearchHarness;
  beforeAll(async () => {
    h = await startHarness('searchidx');
  });
  afterAll(async () => {
    await h.close();
  });

  const found = async (q: string, type = 'timelines'): Promise<string[]> => {
    const res = await h.call('get', `/api/search/enhanced?q=${encodeURIComponent(q)}&type=${type}`).expect(200);
    const body = res.body as { timelines: Array<{ id: string }>; users: Array<{ id: string }>; hashtags: Array<{ name: string }> };
    return type === 'hashtags' ? body.hashtags.map((x) => x.name) : type === 'users' ? body.users.map((x) => x.id) : body.timelines.map((x) => x.id);
  };

  it('a published public timeline is found by its title, description and creator, with its card', async () => {
    const word = uniqueWord('kestrel');
    const creatorId = await h.register(uniqueWord('ada'), 'Ada Lovelace');
    const t = await h.timeline({ title: `The ${word} diaries`, description: 'Falcons over the #Moorland at dawn', creatorId, views: 40, likesCount: 3 });
    const res = await h.call('get', `/api/search/enhanced?q=${word}`).expect(200);
    expect(res.body.timelines).toEqual([
      expect.objectContaining({
        id: t.timelineId,
        title: `The ${word} diaries`,
        description: 'Falcons over the #Moorland at dawn',
        hashtags: ['moorland'],
        visibility: 'public',
        status: 'published',
        creatorId,
        creatorName: 'Ada Lovelace',
        creator: expect.objectContaining({ id: creatorId, displayName: 'Ada Lovelace' }),
        views: 40,
        likesCount: 3,
        videoCount: 3,
        duration: 95,
      }),
    ]);
    expect(await found(`${word} falcons`)).toEqual([t.timelineId]);
  });

  it("a result carries its cover's description from the newest snapshot; a timeline not listed keeps none", async () => {
    const word = uniqueWord('plover');
    const cover = randomUUID();
    const t = await h.timeline({ title: `${word} shore` });
    const result = async () => {
      const res = await h.call('get', `/api/search/enhanced?q=${word}&type=timelines`).expect(200);
      return (res.body.timelines as Array<{ id: string; coverMediaId: string | null; coverAltText: string | null }>).find((x) => x.id === t.timelineId);
    };
    expect(await result()).toMatchObject({ coverMediaId: null, coverAltText: null });
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, { ...t, revision: 2n, coverMediaId: cover, coverAltText: 'Plovers run along the waterline' }));
    expect(await result()).toMatchObject({ coverMediaId: cover, coverAltText: 'Plovers run along the waterline' });
    // An older snapshot changes nothing.
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, { ...t, revision: 1n, coverMediaId: cover, coverAltText: 'Stale' }));
    expect(await result()).toMatchObject({ coverAltText: 'Plovers run along the waterline' });
    // Made private: nothing of it is kept.
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, { ...t, revision: 3n, visibility: Visibility.PRIVATE, coverMediaId: cover, coverAltText: 'Plovers run along the waterline' }));
    const [row] = await h.query<{ cover_alt_text: string | null }>('SELECT cover_alt_text FROM timelines WHERE id = $1', [t.timelineId]);
    expect(row).toEqual({ cover_alt_text: null });
  });

  it('a newer snapshot replaces the words; an older or redelivered one changes nothing', async () => {
    const before = uniqueWord('osprey');
    const after = uniqueWord('heron');
    const t = await h.timeline({ title: `${before} river` });
    await h.timeline({ id: t.timelineId, creatorId: t.creatorId, title: `${after} river`, revision: 3 });
    expect(await found(before)).toEqual([]);
    expect(await found(after)).toEqual([t.timelineId]);

    // Revision 2 arrives late: ignored.
    await h.timeline({ id: t.timelineId, creatorId: t.creatorId, title: `${before} late`, revision: 2 });
    expect(await found(before)).toEqual([]);

    // The very same event delivered again: the inbox skips it.
    const newest = uniqueWord('egret');
    const eventId = randomUUID();
    const snapshot = { ...t, title: `${newest} river`, revision: 4n };
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, snapshot, { id: eventId }));
    const [row] = await h.query<{ revision: string; views: string }>('SELECT revision, views FROM timelines WHERE id = $1', [t.timelineId]);
    await h.publish(TimelinesEvents.TimelineSnapshot, { ...snapshot, title: 'tampered', views: 999n }, { id: eventId });
    const marker = await h.publish(TimelinesEvents.TimelineSnapshot, { ...snapshot, timelineId: randomUUID(), title: 'another timeline' });
    await h.settle(marker);
    expect(await h.query('SELECT revision, views FROM timelines WHERE id = $1', [t.timelineId])).toEqual([row]);
    expect(await found(newest)).toEqual([t.timelineId]);
    expect(await found('tampered')).toEqual([]);
  });

  it.each([
    ['made private', { visibility: Visibility.PRIVATE }],
    ['made unlisted', { visibility: Visibility.UNLISTED }],
    ['unpublished', { status: TimelineStatus.DRAFT }],
  ])('a timeline %s leaves the results within 1 second, and its words with it', async (_name, change) => {
    const word = uniqueWord('plover');
    const tag = uniqueWord('tag');
    const t = await h.timeline({ title: `${word} nest`, description: `#${tag}` });
    expect(await found(word)).toEqual([t.timelineId]);
    expect(await found(`#${tag}`, 'hashtags')).toEqual([tag]);

    const started = Date.now();
    await h.publish(TimelinesEvents.TimelineSnapshot, { ...t, ...change, revision: t.revision + 1n });
    await waitFor(async () => (await found(word)).length === 0, 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await found(`#${tag}`, 'hashtags')).toEqual([]);
    const [row] = await h.query<{ title: string; description: string; document: string | null }>('SELECT title, description, document FROM timelines WHERE id = $1', [t.timelineId]);
    expect(row).toEqual({ title: '', description: '', document: null });

    // Published and public again: found again.
    await h.timeline({ id: t.timelineId, creatorId: t.creatorId, title: `${word} nest`, revision: Number(t.revision) + 2 });
    expect(await found(word)).toEqual([t.timelineId]);
  });

  it('a deleted timeline leaves the results within 1 second and no later snapshot brings it back', async () => {
    const word = uniqueWord('curlew');
    const t = await h.timeline({ title: word, views: 10 });
    const started = Date.now();
    await h.publish(TimelinesEvents.TimelineDeleted, { timelineId: t.timelineId, creatorId: t.creatorId });
    await waitFor(async () => (await found(word)).length === 0, 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    await h.timeline({ id: t.timelineId, creatorId: t.creatorId, title: word, revision: 50 });
    expect(await found(word)).toEqual([]);
    expect(await h.query('SELECT 1 FROM timeline_engagement WHERE timeline_id = $1', [t.timelineId])).toEqual([]);
  });

  it('a malformed snapshot is skipped', async () => {
    const word = uniqueWord('skua');
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, { timelineId: 'not-a-uuid', creatorId: randomUUID(), title: word, visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: 1n }));
    await h.settle(await h.publish(TimelinesEvents.TimelineSnapshot, { timelineId: randomUUID(), creatorId: randomUUID(), title: word, visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: 0n }));
    expect(await found(word)).toEqual([]);
  });

  it('people come from registration and profile edits, and their timelines are found by their username', async () => {
    const username = uniqueWord('grace');
    const renamed = uniqueWord('hopper');
    const userId = await h.register(username, 'Grace');
    const t = await h.timeline({ title: 'Compilers', creatorId: userId, creatorName: 'Grace' });
    expect(await found(`@${username}`, 'users')).toEqual([userId]);
    expect(await found(`${username} compilers`)).toEqual([t.timelineId]);

    const bio = uniqueWord('cobol');
    await h.settle(await h.publish(AuthEvents.UserUpdated, { userId, username: renamed, displayName: 'Grace Hopper', bio: `Wrote ${bio}` }));
    expect(await found(renamed, 'users')).toEqual([userId]);
    expect(await found(bio, 'users')).toEqual([userId]);
    expect(await found(`${renamed} compilers`)).toEqual([t.timelineId]);
    expect(await found(`${username} compilers`)).toEqual([]);
    const res = await h.call('get', `/api/search/enhanced?q=${renamed}&type=users`).expect(200);
    expect(res.body.users[0]).toEqual({ id: userId, username: renamed, displayName: 'Grace Hopper', bio: `Wrote ${bio}`, avatar: null, isPrivate: false, followersCount: 0 });
  });

  it('follower counts are kept by version: an older count never overwrites a newer one', async () => {
    const userId = await h.register(uniqueWord('linus'), 'Linus');
    const follow = (count: number, version: number) => h.publish(SocialEvents.FollowChanged, { followerId: randomUUID(), followeeId: userId, active: true, followersCount: BigInt(count), followersVersion: BigInt(version) });
    await h.settle(await follow(5, 5));
    await h.settle(await follow(4, 4));
    expect(await h.query('SELECT followers_count FROM users WHERE id = $1', [userId])).toEqual([{ followers_count: 5 }]);
  });

  it("hashtags count listed timelines and posts; edits and deletions move the count, and a deleted post's late edit changes nothing", async () => {
    const tag = uniqueWord('birding');
    const user = randomUUID();
    const usage = async () => (await h.call('get', `/api/search/enhanced?q=%23${tag}&type=hashtags`).expect(200)).body.hashtags as Array<{ name: string; usageCount: number }>;
    const postId = await h.post(user, [tag]);
    const t = await h.timeline({ title: `Dawn chorus #${tag}` });
    expect(await usage()).toEqual([{ name: tag, usageCount: 2 }]);

    // The same PostCreated again (another id, same post): the post still counts once.
    await h.post(user, [tag], { postId });
    expect(await usage()).toEqual([{ name: tag, usageCount: 2 }]);

    await h.settle(await h.publish(SocialEvents.PostUpdated, { postId, userId: user, content: 'no tags now', hashtags: [] }));
    expect(await usage()).toEqual([{ name: tag, usageCount: 1 }]);
    await h.settle(await h.publish(SocialEvents.PostUpdated, { postId, userId: user, content: `#${tag}`, hashtags: [tag] }));
    await h.settle(await h.publish(SocialEvents.PostDeleted, { postId, userId: user }));
    expect(await usage()).toEqual([{ name: tag, usageCount: 1 }]);
    await h.settle(await h.publish(SocialEvents.PostUpdated, { postId, userId: user, content: `#${tag}`, hashtags: [tag] }));
    expect(await usage()).toEqual([{ name: tag, usageCount: 1 }]);

    // Timelines from the search results open with the tag.
    const res = await h.call('get', `/api/search/enhanced?q=%23${tag}`).expect(200);
    expect(res.body.timelines.map((x: { id: string }) => x.id)).toEqual([t.timelineId]);

    await h.deleteTimeline(t.timelineId, t.creatorId);
    expect(await usage()).toEqual([]);
    // Malformed tags from a producer are dropped.
    await h.post(user, ['ok_tag', '#bad', 'with space', '9starts', 'x'.repeat(51)]);
    expect(await h.query(`SELECT hashtag FROM hashtag_uses WHERE hashtag IN ('#bad', 'with space', '9starts')`)).toEqual([]);
  });
});

describe('a search service started after the events', () => {
  let h: SearchHarness;
  const word = uniqueWord('latecomer');
  const timelineId = randomUUID();
  const userId = randomUUID();
  const username = uniqueWord('early');
  beforeAll(async () => {
    h = await startHarness('searchlate', {
      publishFirst: async ({ publish }) => {
        await publish(AuthEvents.UserRegistered, { userId, username, displayName: 'Early Bird', email: 'early@example.com' });
        await publish(TimelinesEvents.TimelineSnapshot, {
          timelineId, creatorId: userId, creatorName: 'Early Bird', title: `${word} timeline`, visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: 1n,
        });
      },
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it('catches up on everything the stream holds', async () => {
    await waitFor(async () => (await h.call('get', `/api/search/enhanced?q=${word}`).expect(200)).body.timelines.length === 1);
    const res = await h.call('get', `/api/search/enhanced?q=${username}`).expect(200);
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([userId]);
    expect(res.body.timelines.map((t: { id: string }) => t.id)).toEqual([timelineId]);
  });
});
