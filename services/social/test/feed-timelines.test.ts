import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { TimelinesEvents, type TimelineSnapshot, type TimelineSnapshotSchema, TimelineStatus, Visibility } from '@timeliner/proto';
import { expectedInboxSql } from '../src/feed-index/following-inbox.js';
import { type SocialHarness, startHarness, waitFor } from './harness.js';

/** feed_timelines follows TimelineSnapshot: the highest revision wins, a deletion is final. */
describe('feed_timelines from TimelineSnapshot', () => {
  let h: SocialHarness;
  beforeAll(async () => {
    h = await startHarness('socialfeedtl');
  });
  afterAll(async () => {
    await h.close();
  });

  type Snapshot = MessageInitShape<typeof TimelineSnapshotSchema>;
  const base = Date.parse('2026-03-01T10:00:00.123456Z');
  const snapshot = (timelineId: string, revision: number, changes: Partial<Omit<TimelineSnapshot, '$typeName' | '$unknown'>> = {}): Snapshot => ({
    timelineId,
    creatorId: h.world.owner,
    creatorName: 'Ada',
    title: `Revision ${revision}`,
    description: '',
    visibility: Visibility.PUBLIC,
    status: TimelineStatus.PUBLISHED,
    videoCount: revision,
    duration: 10 * revision,
    views: BigInt(revision * 100),
    likesCount: revision,
    commentsCount: 0,
    activityScore: 12.34,
    lastActivityAt: { seconds: BigInt(Math.floor(base / 1000)), nanos: 123_456_000 },
    createdAt: timestampFromDate(new Date(base - 3_600_000)),
    updatedAt: timestampFromDate(new Date(base)),
    coverMediaId: '',
    revision: BigInt(revision),
    ...changes,
  });
  const deliver = async (payload: Snapshot) => {
    const id = await h.publish(TimelinesEvents.TimelineSnapshot, payload);
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
  };
  const deleteTimeline = async (timelineId: string) => {
    const id = await h.publish(TimelinesEvents.TimelineDeleted, { timelineId, creatorId: h.world.owner });
    await waitFor(async () => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [id])).length === 1);
  };
  const row = async (id: string) =>
    (await h.query<Record<string, unknown>>(
      `SELECT title, revision, video_count, views, likes_count, score_band, activity_score, visibility, status, cover_media_id, cover_alt_text, sensitive,
              to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_activity_at, key_changed_at
         FROM feed_timelines WHERE id = $1`,
      [id],
    ))[0];
  const history = (id: string) =>
    h.query<{ score_band: number; last_activity_at: string; replaced_at: Date }>(
      `SELECT score_band, to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_activity_at, replaced_at
         FROM feed_key_history WHERE item_type = 'timeline' AND item_id = $1 ORDER BY seq`,
      [id],
    );

  it('inserts a new timeline with its key, to the microsecond, and no history', async () => {
    const id = randomUUID();
    const cover = randomUUID();
    await deliver(snapshot(id, 1, { coverMediaId: cover.toUpperCase(), visibility: Visibility.UNLISTED, status: TimelineStatus.DRAFT }));
    expect(await row(id)).toMatchObject({
      title: 'Revision 1', revision: '1', video_count: 1, views: '100', likes_count: 1, score_band: 123, activity_score: 12.34,
      visibility: 'unlisted', status: 'draft', cover_media_id: cover, last_activity_at: '2026-03-01T10:00:00.123456Z',
    });
    expect(await history(id)).toEqual([]);
  });

  it('keeps whether a timeline is marked sensitive, as its newest snapshot says, and its card says so', async () => {
    const id = randomUUID();
    await deliver(snapshot(id, 1, { sensitive: true, visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED }));
    expect(await row(id)).toMatchObject({ sensitive: true });
    // Its card in the creator's following tab (their own timelines are in it) says so.
    const items = (await h.call('get', '/api/feed?tab=following&limit=50', { userId: h.world.owner }).expect(200)).body as Array<{ id: string; timeline?: { sensitive: boolean } }>;
    expect(items.find((i) => i.id === id)?.timeline?.sensitive).toBe(true);
    await deliver(snapshot(id, 3, { sensitive: false, visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED }));
    await deliver(snapshot(id, 2, { sensitive: true, visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED }));
    expect(await row(id)).toMatchObject({ sensitive: false, revision: '3' });
  });

  it("keeps the cover's description as the newest snapshot says, and the feed card and the profile tab carry it", async () => {
    const id = randomUUID();
    const cover = randomUUID();
    const listed = { visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED };
    // Known here, so their profile's Timelines tab answers.
    if ((await h.query('SELECT 1 FROM users WHERE id = $1', [h.world.owner])).length === 0) await h.register(h.world.owner, 'ada', 'Ada');
    const described = async () => {
      const items = (await h.call('get', '/api/feed?tab=following&limit=50', { userId: h.world.owner }).expect(200)).body as Array<{ id: string; timeline?: { coverAltText: string | null } }>;
      const tab = (await h.call('get', `/api/users/${h.world.owner}/timelines?limit=50`, { userId: h.world.owner }).expect(200)).body as Array<{ id: string; coverAltText: string | null }>;
      return { feed: items.find((i) => i.id === id)?.timeline?.coverAltText, tab: tab.find((t) => t.id === id)?.coverAltText };
    };
    await deliver(snapshot(id, 1, { ...listed, coverMediaId: cover }));
    expect(await row(id)).toMatchObject({ cover_alt_text: null });
    expect(await described()).toEqual({ feed: null, tab: null });
    await deliver(snapshot(id, 2, { ...listed, coverMediaId: cover, coverAltText: 'A dog catches a frisbee on the beach' }));
    expect(await row(id)).toMatchObject({ cover_alt_text: 'A dog catches a frisbee on the beach' });
    expect(await described()).toEqual({ feed: 'A dog catches a frisbee on the beach', tab: 'A dog catches a frisbee on the beach' });
    // An older snapshot changes nothing; without a cover there is no description.
    await deliver(snapshot(id, 1, { ...listed, coverMediaId: cover, coverAltText: 'Stale' }));
    expect(await row(id)).toMatchObject({ cover_alt_text: 'A dog catches a frisbee on the beach' });
    await deliver(snapshot(id, 3, { ...listed, coverMediaId: '', coverAltText: 'Orphan' }));
    expect(await row(id)).toMatchObject({ cover_media_id: null, cover_alt_text: null });
  });

  it('keeps the highest revision whatever order snapshots arrive in', async () => {
    const id = randomUUID();
    await deliver(snapshot(id, 2));
    await deliver(snapshot(id, 1));
    expect(await row(id)).toMatchObject({ title: 'Revision 2', revision: '2', video_count: 2 });
    await deliver(snapshot(id, 4));
    await deliver(snapshot(id, 3));
    // The same revision again (another event id) changes nothing either.
    await deliver(snapshot(id, 4, { title: 'Impostor' }));
    expect(await row(id)).toMatchObject({ title: 'Revision 4', revision: '4', video_count: 4, views: '400', likes_count: 4 });
  });

  it('changes the sort key only through setFeedKey: the replaced key goes to feed_key_history', async () => {
    const id = randomUUID();
    await deliver(snapshot(id, 1));
    const inserted = await row(id);
    // Same key, other fields: no history.
    await deliver(snapshot(id, 2, { title: 'Renamed' }));
    expect(await history(id)).toEqual([]);
    expect((await row(id))!.key_changed_at).toEqual(inserted!.key_changed_at);

    // A like moves it up: new band and last activity.
    const later = new Date(base + 60_000);
    await deliver(snapshot(id, 3, { activityScore: 14.05, lastActivityAt: timestampFromDate(later) }));
    const moved = await row(id);
    expect(moved).toMatchObject({ revision: '3', score_band: 140, activity_score: 14.05, last_activity_at: later.toISOString().replace('Z', '000Z') });
    const kept = await history(id);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ score_band: 123, last_activity_at: '2026-03-01T10:00:00.123456Z' });
    expect(kept[0]!.replaced_at).toEqual(moved!.key_changed_at);
    expect((moved!.key_changed_at as Date).getTime()).toBeGreaterThan((inserted!.key_changed_at as Date).getTime());

    // An older snapshot with the old key changes nothing, not even the history.
    await deliver(snapshot(id, 2));
    expect(await row(id)).toMatchObject({ revision: '3', score_band: 140 });
    expect(await history(id)).toHaveLength(1);
  });

  it('a deleted timeline leaves the feed for good: a later snapshot does not bring it back', async () => {
    const id = randomUUID();
    await deliver(snapshot(id, 1));
    await deleteTimeline(id);
    expect(await row(id)).toBeUndefined();
    expect(await h.query('SELECT 1 FROM deleted_timelines WHERE id = $1', [id])).toHaveLength(1);
    await deliver(snapshot(id, 2));
    expect(await row(id)).toBeUndefined();
    // Deleted again (redelivered under another id): still one deletion, nothing fails.
    await deleteTimeline(id);
    expect(await h.query('SELECT 1 FROM deleted_timelines WHERE id = $1', [id])).toHaveLength(1);

    // A snapshot overtaken by the deletion of a timeline the feed never had.
    const unseen = randomUUID();
    await deleteTimeline(unseen.toUpperCase());
    await deliver(snapshot(unseen, 5));
    expect(await row(unseen)).toBeUndefined();
  });

  it('ignores malformed snapshots', async () => {
    const id = randomUUID();
    await deliver(snapshot('not-a-uuid', 1));
    await deliver(snapshot(id, 1, { creatorId: 'nobody' }));
    await deliver(snapshot(id, 0));
    expect(await row(id)).toBeUndefined();
  });

  it("keeps every person's following inbox as its rule says through timeline changes, follows, posts and deletions", async () => {
    const owner = randomUUID();
    const ana = randomUUID();
    const ben = randomUUID();
    await h.register(owner, 'inbox_owner', 'Ada');
    await h.register(ana, 'inbox_ana', 'Ana');
    await h.register(ben, 'inbox_ben', 'Ben');
    const inboxIsRight = async () => {
      const order = 'ORDER BY owner_id, item_id';
      const actual = await h.query(`SELECT owner_id, item_type, item_id, author_id, at FROM feed_inbox ${order}`);
      const expected = await h.query(`SELECT owner_id, item_type, item_id, author_id, at FROM (${expectedInboxSql}) e ${order}`);
      expect(actual).toEqual(expected);
      return actual.length;
    };
    const inboxOf = async (owner: string) => (await h.query<{ item_id: string }>('SELECT item_id FROM feed_inbox WHERE owner_id = $1', [owner])).map((r) => r.item_id);

    // Ana follows the owner before and Ben after the owner publishes.
    await h.call('post', `/api/users/${owner}/follow`, { userId: ana }).expect(200);
    const t = randomUUID();
    await deliver(snapshot(t, 1, { creatorId: owner, status: TimelineStatus.DRAFT }));
    expect(await inboxOf(ana)).not.toContain(t);
    await deliver(snapshot(t, 2, { creatorId: owner }));
    expect(await inboxOf(ana)).toContain(t);
    await h.call('post', `/api/users/${owner}/follow`, { userId: ben }).expect(200);
    expect(await inboxOf(ben)).toContain(t);
    await inboxIsRight();

    // Made private: only its creator keeps it; public again: back for the followers.
    await deliver(snapshot(t, 3, { creatorId: owner, visibility: Visibility.PRIVATE }));
    expect(await inboxOf(ana)).not.toContain(t);
    expect(await inboxOf(owner)).toContain(t);
    await deliver(snapshot(t, 4, { creatorId: owner }));
    expect(await inboxOf(ana)).toContain(t);
    await inboxIsRight();

    // Another creator (ownership transferred to Ben): the owner's followers lose it, Ben has it.
    await deliver(snapshot(t, 5, { creatorId: ben, creatorName: 'Ben' }));
    expect(await inboxOf(ana)).not.toContain(t);
    expect(await inboxOf(owner)).not.toContain(t);
    expect(await inboxOf(ben)).toContain(t);
    await inboxIsRight();

    // Posts reach the followers at once; a deleted one leaves every inbox; an unfollow takes the rest.
    const first = (await h.call('post', '/api/posts', { userId: owner }).send({ content: 'for my followers' }).expect(201)).body.id as string;
    const second = (await h.call('post', '/api/posts', { userId: owner }).send({ content: 'and again' }).expect(201)).body.id as string;
    expect(await inboxOf(ana)).toEqual(expect.arrayContaining([first, second]));
    await h.call('delete', `/api/posts/${first}`, { userId: owner }).expect(204);
    expect(await inboxOf(ana)).not.toContain(first);
    await h.call('delete', `/api/users/${owner}/follow`, { userId: ana }).expect(200);
    expect(await inboxOf(ana)).not.toContain(second);
    await inboxIsRight();

    // Deleted: gone from everyone's.
    await deleteTimeline(t);
    expect(await inboxOf(ben)).not.toContain(t);
    expect(await inboxIsRight()).toBeGreaterThan(0);
  });

  it('delivers a post to a follower who followed at the same moment, from one side or the other', async () => {
    const author = randomUUID();
    await h.register(author, 'inbox_racer', 'Racer');
    const fans = Array.from({ length: 12 }, () => randomUUID());
    for (const [i, fan] of fans.entries()) await h.register(fan, `inbox_fan_${i}`, `Fan ${i}`);
    // Follows and posts at once, interleaved: every fan ends with every post.
    const posts = await Promise.all([
      ...fans.map((fan) => h.call('post', `/api/users/${author}/follow`, { userId: fan }).expect(200).then(() => null)),
      ...Array.from({ length: 6 }, (_, i) => h.call('post', '/api/posts', { userId: author }).send({ content: `racing ${i}` }).expect(201).then((res) => res.body.id as string)),
    ]);
    const written = posts.filter((id): id is string => id !== null);
    for (const fan of fans) {
      const inbox = (await h.query<{ item_id: string }>('SELECT item_id FROM feed_inbox WHERE owner_id = $1', [fan])).map((r) => r.item_id);
      expect(inbox.sort()).toEqual([...written].sort());
    }
  });
});
