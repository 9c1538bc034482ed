import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { Reaction, SocialEvents, TargetType } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** likesCount and the last like follow the social service's versioned events, whatever their order. */
describe('timeline like counts from social events', () => {
  let h: TimelinesHarness;
  let owner: Person;

  beforeAll(async () => {
    h = await startHarness('tllikes');
    owner = await h.register();
  });
  afterAll(async () => {
    await h.close();
  });

  const row = async (id: string) =>
    (await h.query<{ likes_count: number; likes_version: string; last_like_at: Date | null; activity_score: number }>(
      'SELECT likes_count, likes_version, last_like_at, activity_score FROM timelines WHERE id = $1', [id],
    ))[0]!;
  const applied = async (eventId: string) => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1;
  const like = (timelineId: string, count: number, version: number, active = true, at = new Date()) => ({
    targetType: TargetType.TIMELINE,
    targetId: timelineId,
    timelineId,
    userId: randomUUID(),
    reaction: Reaction.LIKE,
    active,
    count: BigInt(count),
    countVersion: BigInt(version),
    at: timestampFromDate(at),
  });
  const deliver = async (payload: ReturnType<typeof like>, id?: string) => {
    const eventId = await h.publish(SocialEvents.ReactionChanged, payload, id);
    await h.waitFor(() => applied(eventId));
    return eventId;
  };
  const newTimeline = async (title: string) => (await h.call('post', '/api/timelines', as(owner)).send({ title }).expect(201)).body.id as string;

  it('sets the count from the newest version, shows it at once and counts the like as activity', async () => {
    const timelineId = await newTimeline('Liked');
    const before = await row(timelineId);
    const at = new Date(Date.now() + 60_000);
    await deliver(like(timelineId, 1, 10, true, at));
    const after = await row(timelineId);
    expect(after).toMatchObject({ likes_count: 1, likes_version: '10' });
    expect(after.last_like_at?.toISOString()).toBe(at.toISOString());
    expect(after.activity_score).toBeGreaterThan(before.activity_score);
    expect((await h.call('get', `/api/timelines/${timelineId}`, as(owner)).expect(200)).body).toMatchObject({ likesCount: 1 });
  });

  it('never lets a redelivered or overtaken event make the count wrong', async () => {
    const timelineId = await newTimeline('Reordered');
    const first = await deliver(like(timelineId, 1, 21));
    await deliver(like(timelineId, 3, 23));
    // Older versions arriving late, and the same event again: the count stays at the newest.
    await deliver(like(timelineId, 2, 22));
    await h.publish(SocialEvents.ReactionChanged, like(timelineId, 1, 21), first);
    await deliver(like(timelineId, 1, 21));
    expect(await row(timelineId)).toMatchObject({ likes_count: 3, likes_version: '23' });
    // An unlike with a newer version lowers it; one with an older version does not.
    await deliver(like(timelineId, 2, 24, false));
    await deliver(like(timelineId, 0, 19, false));
    expect(await row(timelineId)).toMatchObject({ likes_count: 2, likes_version: '24' });
    expect((await h.call('get', `/api/timelines/${timelineId}`, as(owner)).expect(200)).body).toMatchObject({ likesCount: 2 });
  });

  it('keeps the latest like time, whichever event comes last; unlikes and other reactions leave it', async () => {
    const timelineId = await newTimeline('Times');
    const later = new Date(Date.now() + 120_000);
    const earlier = new Date(Date.now() + 30_000);
    await deliver(like(timelineId, 1, 31, true, later));
    await deliver(like(timelineId, 1, 30, true, earlier));
    await deliver(like(timelineId, 0, 32, false, new Date(Date.now() + 600_000)));
    await deliver({ ...like(timelineId, 5, 99, true, new Date(Date.now() + 900_000)), reaction: Reaction.BOOKMARK });
    await deliver({ ...like(timelineId, 7, 99, true, new Date(Date.now() + 900_000)), targetType: TargetType.VIDEO, targetId: randomUUID() });
    const after = await row(timelineId);
    expect(after).toMatchObject({ likes_count: 0, likes_version: '32' });
    expect(after.last_like_at?.toISOString()).toBe(later.toISOString());
  });

  it('ignores likes of timelines that do not exist and malformed ids', async () => {
    await deliver(like(randomUUID(), 4, 1));
    await deliver({ ...like(randomUUID(), 4, 1), targetId: 'not-a-uuid' });
    expect(await h.query('SELECT 1 FROM timelines WHERE likes_count = 4')).toEqual([]);
  });
});
