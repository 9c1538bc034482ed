import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import { TimelinesEvents, type TimelineSnapshot, type TimelineSnapshotSchema, TimelineStatus, Visibility } from '@timeliner/proto';
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
      `SELECT title, revision, video_count, views, likes_count, score_band, activity_score, visibility, status, cover_media_id,
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
});
