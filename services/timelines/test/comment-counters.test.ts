import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { SocialEvents } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/** commentsCount follows the social service's versioned comment events, whatever their order. */
describe('timeline comment counts from social events', () => {
  let h: TimelinesHarness;
  let owner: Person;

  beforeAll(async () => {
    h = await startHarness('tlcomments');
    owner = await h.register();
  });
  afterAll(async () => {
    await h.close();
  });

  const row = async (id: string) =>
    (await h.query<{ comments_count: number; comments_version: string; last_comment_at: Date | null }>('SELECT comments_count, comments_version, last_comment_at FROM timelines WHERE id = $1', [id]))[0]!;
  const applied = async (eventId: string) => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1;
  const added = (timelineId: string, count: number, version: number, at = new Date()) => ({
    commentId: randomUUID(),
    timelineId,
    userId: randomUUID(),
    createdAt: timestampFromDate(at),
    commentsCount: BigInt(count),
    countVersion: BigInt(version),
  });
  const deleted = (timelineId: string, count: number, version: number) => ({ commentId: randomUUID(), timelineId, commentsCount: BigInt(count), countVersion: BigInt(version) });
  const addedEvent = async (payload: ReturnType<typeof added>, id?: string) => {
    const eventId = await h.publish(SocialEvents.TimelineCommentAdded, payload, id);
    await h.waitFor(() => applied(eventId));
    return eventId;
  };
  const deletedEvent = async (payload: ReturnType<typeof deleted>) => {
    const eventId = await h.publish(SocialEvents.TimelineCommentDeleted, payload);
    await h.waitFor(() => applied(eventId));
  };
  const newTimeline = async (title: string) => (await h.call('post', '/api/timelines', as(owner)).send({ title }).expect(201)).body.id as string;

  it('sets the count from the newest version: older counts arriving late, or again, never put it back', async () => {
    const timelineId = await newTimeline('Commented');
    const first = await addedEvent(added(timelineId, 1, 41));
    await addedEvent(added(timelineId, 3, 43));
    await addedEvent(added(timelineId, 2, 42));
    // A deletion overtaken by a newer addition, and the first event again under a new id (a replayed copy).
    await deletedEvent(deleted(timelineId, 1, 40));
    await h.publish(SocialEvents.TimelineCommentAdded, added(timelineId, 1, 41), first);
    await addedEvent(added(timelineId, 1, 41));
    expect(await row(timelineId)).toMatchObject({ comments_count: 3, comments_version: '43' });
    await deletedEvent(deleted(timelineId, 2, 44));
    expect(await row(timelineId)).toMatchObject({ comments_count: 2, comments_version: '44' });
    expect((await h.call('get', `/api/timelines/${timelineId}`, as(owner)).expect(200)).body).toMatchObject({ commentsCount: 2 });
  });

  it('keeps the latest comment time, whichever event comes last', async () => {
    const timelineId = await newTimeline('Times');
    const later = new Date(Date.now() + 120_000);
    await addedEvent(added(timelineId, 2, 52, later));
    await addedEvent(added(timelineId, 1, 51, new Date(Date.now() + 30_000)));
    const after = await row(timelineId);
    expect(after).toMatchObject({ comments_count: 2, comments_version: '52' });
    expect(after.last_comment_at?.toISOString()).toBe(later.toISOString());
  });

  it('counts an event published before counts were versioned by one, until a versioned count sets it', async () => {
    const timelineId = await newTimeline('Older events');
    await addedEvent(added(timelineId, 0, 0));
    await addedEvent(added(timelineId, 0, 0));
    expect(await row(timelineId)).toMatchObject({ comments_count: 2, comments_version: '0' });
    await addedEvent(added(timelineId, 5, 60));
    // An unversioned event after a versioned count changes nothing: the version knows better.
    await deletedEvent(deleted(timelineId, 0, 0));
    expect(await row(timelineId)).toMatchObject({ comments_count: 5, comments_version: '60' });
  });
});
