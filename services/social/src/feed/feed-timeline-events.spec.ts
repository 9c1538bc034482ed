import { describe, expect, it } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { TimestampSchema } from '@bufbuild/protobuf/wkt';
import { type TimelineSnapshot, TimelineSnapshotSchema, TimelineStatus, Visibility } from '@timeliner/proto';
import { feedTimelineRow, scoreBandOf, timestampText } from './feed-timeline-events.js';

const ts = (seconds: bigint, nanos = 0) => create(TimestampSchema, { seconds, nanos });
const OCCURRED = '2026-05-01T00:00:00.000Z';
const ID = '7d4f8a52-1c2b-4c6e-9a0d-3e5f6a7b8c9d';
const CREATOR = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

describe('timestampText', () => {
  it('writes microseconds, as Postgres keeps them', () => {
    expect(timestampText(ts(1_772_359_200n, 123_456_789))).toBe('2026-03-01T10:00:00.123456Z');
    expect(timestampText(ts(0n))).toBe('1970-01-01T00:00:00.000000Z');
    expect(timestampText(ts(-1n, 500_000_000))).toBe('1969-12-31T23:59:59.500000Z');
  });

  it('refuses what is absent or out of range', () => {
    expect(timestampText(undefined)).toBeUndefined();
    expect(timestampText(ts(253_402_300_800n))).toBeUndefined();
    expect(timestampText(ts(-62_135_596_801n))).toBeUndefined();
    expect(timestampText(ts(0n, 1_000_000_000))).toBeUndefined();
    expect(timestampText(ts(0n, -1))).toBeUndefined();
  });
});

describe('scoreBandOf', () => {
  it('is floor(score × 10), as the timelines service stores it', () => {
    expect(scoreBandOf(12.34)).toBe(123);
    expect(scoreBandOf(0.09)).toBe(0);
    expect(scoreBandOf(-0.01)).toBe(-1);
    expect(scoreBandOf(Number.NaN)).toBe(0);
    expect(scoreBandOf(Number.POSITIVE_INFINITY)).toBe(0);
    expect(scoreBandOf(1e12)).toBe(2_147_483_647);
  });
});

describe('feedTimelineRow', () => {
  const snapshot = (changes: Partial<Omit<TimelineSnapshot, '$typeName' | '$unknown'>> = {}) =>
    create(TimelineSnapshotSchema, {
      timelineId: ID.toUpperCase(),
      creatorId: CREATOR,
      creatorName: 'Ada',
      title: 'Trip',
      visibility: Visibility.PUBLIC,
      status: TimelineStatus.PUBLISHED,
      videoCount: 2,
      duration: 30,
      views: 7n,
      likesCount: 3,
      commentsCount: 1,
      activityScore: 345.67,
      lastActivityAt: ts(1_772_359_200n, 5_000),
      createdAt: ts(1_772_000_000n),
      updatedAt: ts(1_772_100_000n),
      coverMediaId: '',
      revision: 9n,
      ...changes,
    });

  it('maps a snapshot to the columns', () => {
    expect(feedTimelineRow(snapshot(), OCCURRED)).toEqual({
      id: ID,
      creatorId: CREATOR,
      creatorName: 'Ada',
      title: 'Trip',
      description: '',
      visibility: 'public',
      status: 'published',
      videoCount: 2,
      duration: 30,
      views: '7',
      likesCount: 3,
      commentsCount: 1,
      activityScore: 345.67,
      scoreBand: 3456,
      lastActivityAt: '2026-03-01T10:00:00.000005Z',
      createdAt: '2026-02-25T06:13:20.000000Z',
      updatedAt: '2026-02-26T10:00:00.000000Z',
      coverMediaId: null,
      coverAltText: null,
      revision: '9',
      sensitive: false,
    });
  });

  it('maps the enums, keeps a cover only when it is an id, and makes the unknown private drafts', () => {
    const cover = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
    expect(feedTimelineRow(snapshot({ visibility: Visibility.UNLISTED, status: TimelineStatus.PROCESSING, coverMediaId: cover.toUpperCase() }), OCCURRED))
      .toMatchObject({ visibility: 'unlisted', status: 'processing', coverMediaId: cover });
    expect(feedTimelineRow(snapshot({ visibility: Visibility.UNSPECIFIED, status: TimelineStatus.UNSPECIFIED, coverMediaId: 'x' }), OCCURRED))
      .toMatchObject({ visibility: 'private', status: 'draft', coverMediaId: null });
  });

  it("keeps the cover's description with a cover only, clipped to the column, and none when it is empty", () => {
    const cover = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
    expect(feedTimelineRow(snapshot({ coverMediaId: cover, coverAltText: 'A heron lands' }), OCCURRED)).toMatchObject({ coverMediaId: cover, coverAltText: 'A heron lands' });
    expect(feedTimelineRow(snapshot({ coverMediaId: cover, coverAltText: '' }), OCCURRED)).toMatchObject({ coverAltText: null });
    expect(feedTimelineRow(snapshot({ coverMediaId: '', coverAltText: 'No cover' }), OCCURRED)).toMatchObject({ coverMediaId: null, coverAltText: null });
    expect(Array.from(feedTimelineRow(snapshot({ coverMediaId: cover, coverAltText: '😀'.repeat(1600) }), OCCURRED)!.coverAltText!)).toHaveLength(1500);
  });

  it('fills missing times from creation, else the event, and clips text to the columns', () => {
    const row = feedTimelineRow(snapshot({ lastActivityAt: undefined, updatedAt: undefined, title: 'é'.repeat(250), creatorName: '😀'.repeat(120) }), OCCURRED)!;
    expect(row.lastActivityAt).toBe('2026-02-25T06:13:20.000000Z');
    expect(row.updatedAt).toBe('2026-02-25T06:13:20.000000Z');
    expect(Array.from(row.title)).toHaveLength(200);
    expect(Array.from(row.creatorName)).toHaveLength(100);
    expect(feedTimelineRow(snapshot({ createdAt: undefined, lastActivityAt: undefined }), OCCURRED)).toMatchObject({ createdAt: OCCURRED, lastActivityAt: OCCURRED });
  });

  it('keeps counts within the columns', () => {
    expect(feedTimelineRow(snapshot({ likesCount: -4, views: -1n, activityScore: Number.NaN }), OCCURRED)).toMatchObject({ likesCount: 0, views: '0', activityScore: 0, scoreBand: 0 });
  });

  it('refuses malformed ids and a missing revision', () => {
    expect(feedTimelineRow(snapshot({ timelineId: 'nope' }), OCCURRED)).toBeNull();
    expect(feedTimelineRow(snapshot({ creatorId: '' }), OCCURRED)).toBeNull();
    expect(feedTimelineRow(snapshot({ revision: 0n }), OCCURRED)).toBeNull();
  });
});
