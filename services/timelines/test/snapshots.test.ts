import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { requestRpc } from '@timeliner/platform';
import { AuthEvents, MediaEvents, MediaType, Reaction, SocialEvents, TargetType, TimelinesEvents, TimelinesRpc, TimelineStatus, Visibility } from '@timeliner/proto';
import { as, type Person, startHarness, type TimelinesHarness } from './harness.js';

/**
 * Every change of what a TimelineSnapshot carries writes one, in the transaction of the change,
 * with a revision one above the last.
 */
describe('TimelineSnapshot events', () => {
  let h: TimelinesHarness;
  let owner: Person;

  beforeAll(async () => {
    h = await startHarness('tlsnapshots');
    owner = await h.register({ displayName: 'Grace Hopper' });
  });
  afterAll(async () => {
    await h.close();
  });

  const snapshots = async (timelineId: string) => (await h.events(TimelinesEvents.TimelineSnapshot)).filter((s) => s.timelineId === timelineId);
  const last = async (timelineId: string) => (await snapshots(timelineId)).at(-1)!;
  const applied = async (eventId: string) => (await h.query('SELECT 1 FROM inbox WHERE event_id = $1', [eventId])).length === 1;
  const deliver: TimelinesHarness['publish'] = async (definition, payload, id) => {
    const eventId = await h.publish(definition, payload, id);
    await h.waitFor(() => applied(eventId));
    return eventId;
  };
  const newTimeline = async (title: string, by = owner) => (await h.call('post', '/api/timelines', as(by)).send({ title, description: 'About it' }).expect(201)).body.id as string;
  const like = (timelineId: string, count: number, version: number, at = new Date(Date.now() + 60_000)) => ({
    targetType: TargetType.TIMELINE,
    targetId: timelineId,
    timelineId,
    userId: randomUUID(),
    reaction: Reaction.LIKE,
    active: true,
    count: BigInt(count),
    countVersion: BigInt(version),
    at: timestampFromDate(at),
  });

  it('creates, then publishes, then counts a like: one snapshot each, revisions growing, fields as stored', async () => {
    const timelineId = await newTimeline('Snapshots');
    const [created] = await snapshots(timelineId);
    expect(created).toMatchObject({
      timelineId,
      creatorId: owner.userId,
      creatorName: 'Grace Hopper',
      title: 'Snapshots',
      description: 'About it',
      visibility: Visibility.PRIVATE,
      status: TimelineStatus.DRAFT,
      videoCount: 0,
      duration: 0,
      views: 0n,
      likesCount: 0,
      commentsCount: 0,
      coverMediaId: '',
      revision: 1n,
    });

    await h.call('patch', `/api/timelines/${timelineId}`, as(owner)).send({ visibility: 'public', status: 'published' }).expect(200);
    expect(await last(timelineId)).toMatchObject({ visibility: Visibility.PUBLIC, status: TimelineStatus.PUBLISHED, revision: 2n });
    // Nothing changed: no snapshot.
    await h.call('patch', `/api/timelines/${timelineId}`, as(owner)).send({ status: 'published' }).expect(200);
    expect(await snapshots(timelineId)).toHaveLength(2);

    await deliver(SocialEvents.ReactionChanged, like(timelineId, 1, 5));
    const liked = await last(timelineId);
    expect(liked).toMatchObject({ likesCount: 1, revision: 3n });
    // An overtaken like, of an earlier time, changes nothing, so it writes nothing.
    await deliver(SocialEvents.ReactionChanged, like(timelineId, 0, 4, new Date(Date.now() - 60_000)));
    expect(await snapshots(timelineId)).toHaveLength(3);

    // The last snapshot is the row: same times to the microsecond, same score, same revision.
    const [row] = await h.query<{ revision: string; activity_score: number; la: string; ca: string; ua: string }>(
      `SELECT revision, activity_score, (extract(epoch FROM last_activity_at) * 1000000)::bigint::text AS la,
              (extract(epoch FROM created_at) * 1000000)::bigint::text AS ca, (extract(epoch FROM updated_at) * 1000000)::bigint::text AS ua
         FROM timelines WHERE id = $1`,
      [timelineId],
    );
    const micros = (ts: typeof liked.lastActivityAt) => (ts!.seconds * 1_000_000n + BigInt(ts!.nanos / 1000)).toString();
    expect(row).toMatchObject({ revision: '3', activity_score: liked.activityScore, la: micros(liked.lastActivityAt), ca: micros(liked.createdAt), ua: micros(liked.updatedAt) });
    expect(liked.activityScore).toBeGreaterThan(created!.activityScore);
    expect(timestampDate(liked.lastActivityAt!).getTime()).toBeGreaterThan(timestampDate(created!.lastActivityAt!).getTime());
  });

  it('follows comments, views, videos and their order (the cover is the first processed video in order)', async () => {
    const timelineId = await newTimeline('Media');
    await h.call('patch', `/api/timelines/${timelineId}`, as(owner)).send({ visibility: 'public', status: 'published' }).expect(200);

    await deliver(SocialEvents.TimelineCommentAdded, { commentId: randomUUID(), timelineId, userId: owner.userId, createdAt: timestampFromDate(new Date()) });
    expect(await last(timelineId)).toMatchObject({ commentsCount: 1, revision: 3n });

    await h.call('post', `/api/timelines/${timelineId}/views`).send({ watchTime: 3, completion: 0.5 }).expect(204);
    expect(await last(timelineId)).toMatchObject({ views: 1n, revision: 4n });
    // The same viewer again within the window is not a new view: no snapshot.
    await h.call('post', `/api/timelines/${timelineId}/views`).send({ watchTime: 5, completion: 0.7 }).expect(204);
    expect(await snapshots(timelineId)).toHaveLength(4);

    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await deliver(MediaEvents.VideoProcessed, { mediaId: a, timelineId, duration: 10 });
    expect(await last(timelineId)).toMatchObject({ videoCount: 1, duration: 10, coverMediaId: a, revision: 5n });
    await deliver(MediaEvents.VideoProcessed, { mediaId: b, timelineId, duration: 5 });
    expect(await last(timelineId)).toMatchObject({ videoCount: 2, duration: 15, coverMediaId: a, revision: 6n });
    // c is not processed yet but already has its place, first.
    await deliver(MediaEvents.MediaReordered, { timelineId, mediaIds: [c, b, a] });
    expect(await last(timelineId)).toMatchObject({ coverMediaId: b, revision: 7n });
    await deliver(MediaEvents.VideoProcessed, { mediaId: c, timelineId, duration: 1 });
    expect(await last(timelineId)).toMatchObject({ videoCount: 3, coverMediaId: c, revision: 8n });
    await deliver(MediaEvents.MediaDeleted, { mediaId: c, timelineId, mediaType: 1, duration: 1 });
    expect(await last(timelineId)).toMatchObject({ videoCount: 2, duration: 15, coverMediaId: b, revision: 9n });

    const revisions = (await snapshots(timelineId)).map((s) => s.revision);
    expect(revisions).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
  });

  it("carries the cover's description: kept from before the video is processed, the newest version wins, and a replay carries it too", async () => {
    const timelineId = await newTimeline('Described');
    const [a, b] = [randomUUID(), randomUUID()];
    const describeMedia = (mediaId: string, altText: string, version: number, mediaType = MediaType.VIDEO) =>
      deliver(MediaEvents.MediaAltTextChanged, { mediaId, timelineId, mediaType, altText, version: BigInt(version) });
    // Described at upload, before processing: no cover yet, no snapshot.
    await describeMedia(a, 'A heron stands in the reeds', 1);
    expect(await snapshots(timelineId)).toHaveLength(1);
    await deliver(MediaEvents.VideoProcessed, { mediaId: a, timelineId, duration: 10 });
    expect(await last(timelineId)).toMatchObject({ coverMediaId: a, coverAltText: 'A heron stands in the reeds', revision: 2n });
    // A new description of the cover publishes a snapshot; an older one arriving late changes nothing.
    await describeMedia(a, 'A heron catches a fish', 3);
    expect(await last(timelineId)).toMatchObject({ coverMediaId: a, coverAltText: 'A heron catches a fish', revision: 3n });
    await describeMedia(a, 'Older words', 2);
    expect(await snapshots(timelineId)).toHaveLength(3);
    // Another video's description, or an image's alt text, is not the cover's: no snapshot.
    await deliver(MediaEvents.VideoProcessed, { mediaId: b, timelineId, duration: 5 });
    await describeMedia(b, 'Ducks on the pond', 1);
    await describeMedia(randomUUID(), 'A photo of the lake', 1, MediaType.IMAGE);
    expect(await snapshots(timelineId)).toHaveLength(4);
    expect(await last(timelineId)).toMatchObject({ coverMediaId: a, coverAltText: 'A heron catches a fish' });
    // b becomes the cover, then is deleted: a's description again.
    await deliver(MediaEvents.MediaReordered, { timelineId, mediaIds: [b, a] });
    expect(await last(timelineId)).toMatchObject({ coverMediaId: b, coverAltText: 'Ducks on the pond' });
    const replayed = await requestRpc(h.bus, TimelinesRpc.Replay, { timelineIds: [timelineId] }, { timeoutMs: 5_000 });
    expect(replayed.snapshots[0]).toMatchObject({ coverMediaId: b, coverAltText: 'Ducks on the pond', revision: (await last(timelineId)).revision });
    await deliver(MediaEvents.MediaDeleted, { mediaId: b, timelineId, mediaType: MediaType.VIDEO, duration: 5 });
    expect(await last(timelineId)).toMatchObject({ coverMediaId: a, coverAltText: 'A heron catches a fish' });
    expect(await h.query('SELECT media_id FROM media_alt_texts WHERE timeline_id = $1', [timelineId])).toEqual([{ media_id: a }]);
    // No cover, no description.
    await deliver(MediaEvents.MediaDeleted, { mediaId: a, timelineId, mediaType: MediaType.VIDEO, duration: 10 });
    expect(await last(timelineId)).toMatchObject({ coverMediaId: '', coverAltText: '' });
    // The descriptions go with their timeline.
    await describeMedia(randomUUID(), 'Kept until the timeline goes', 1);
    await h.call('delete', `/api/timelines/${timelineId}`, as(owner)).expect(204);
    expect(await h.query('SELECT media_id FROM media_alt_texts WHERE timeline_id = $1', [timelineId])).toEqual([]);
  });

  it('a rename writes one snapshot per timeline of the person; an ownership transfer one with the new creator', async () => {
    const person = await h.register({ displayName: 'Old Name' });
    const first = await newTimeline('One', person);
    const second = await newTimeline('Two', person);
    await deliver(AuthEvents.UserUpdated, { userId: person.userId, displayName: 'New Name' });
    for (const id of [first, second]) {
      expect(await last(id)).toMatchObject({ creatorName: 'New Name', revision: 2n });
    }

    const heir = await h.register({ displayName: 'Heir' });
    await h.query(`INSERT INTO collaborators (id, timeline_id, user_id, user_name, role, status) VALUES (gen_random_uuid(), $1, $2, 'Heir', 'editor', 'active')`, [first, heir.userId]);
    await h.call('post', `/api/timelines/${first}/transfer-ownership`, as(person)).send({ newOwnerId: heir.userId }).expect(200);
    expect(await last(first)).toMatchObject({ creatorId: heir.userId, creatorName: 'Heir', revision: 3n });
  });

  it('writes nothing for a timeline that is gone, and the snapshots reach the bus', async () => {
    const timelineId = await newTimeline('Short-lived');
    await h.call('delete', `/api/timelines/${timelineId}`, as(owner)).expect(204);
    await deliver(SocialEvents.ReactionChanged, like(timelineId, 1, 1));
    await deliver(SocialEvents.TimelineCommentAdded, { commentId: randomUUID(), timelineId, userId: owner.userId });
    await deliver(MediaEvents.MediaReordered, { timelineId, mediaIds: [randomUUID()] });
    expect(await snapshots(timelineId)).toHaveLength(1);
    // The relay sends them (the handler's ones at its next poll).
    await h.waitFor(async () => (await h.query(`SELECT 1 FROM outbox WHERE subject = $1 AND dispatched_at IS NULL`, [TimelinesEvents.TimelineSnapshot.subject])).length === 0);
  });

  it('gives a timeline made before snapshots existed its first one (revision 0 → 1), once', async () => {
    const timelineId = await newTimeline('Older');
    await h.query('UPDATE timelines SET revision = 0 WHERE id = $1', [timelineId]);
    const before = (await snapshots(timelineId)).length;
    const { DataSource } = await import('typeorm');
    const { EventWriter } = await import('@timeliner/platform');
    const { backfillSnapshots } = await import('../src/timelines/snapshot.js');
    const dataSource = h.service.app.get(DataSource);
    const writer = new EventWriter();
    expect(await backfillSnapshots(dataSource, writer)).toBe(1);
    expect(await backfillSnapshots(dataSource, writer)).toBe(0);
    const all = await snapshots(timelineId);
    expect(all.length).toBe(before + 1);
    expect(all.at(-1)).toMatchObject({ title: 'Older', revision: 1n });
  });
});
