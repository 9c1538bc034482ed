import { describe, expect, it } from '@jest/globals';
import { activityScore, lastActivityAt, scoreBand } from './activity.js';

const base = { views: 0, likesCount: 0, commentsCount: 0, videoCount: 0, lastActivityAt: new Date('2025-01-01T00:00:00Z') };

describe('activityScore', () => {
  it('is zero for an untouched timeline at the epoch', () => {
    expect(activityScore(base)).toBe(0);
  });

  it('weighs comments over likes over views, with diminishing returns', () => {
    expect(activityScore({ ...base, views: 1 })).toBeCloseTo(1);
    expect(activityScore({ ...base, likesCount: 1 })).toBeCloseTo(2);
    expect(activityScore({ ...base, commentsCount: 1 })).toBeCloseTo(3);
    expect(activityScore({ ...base, videoCount: 3 })).toBeCloseTo(2);
    expect(activityScore({ ...base, views: 1023 })).toBeCloseTo(10);
  });

  it('adds one point per two days of newer activity', () => {
    const later = new Date(base.lastActivityAt.getTime() + 2 * 86_400_000);
    expect(activityScore({ ...base, lastActivityAt: later }) - activityScore(base)).toBeCloseTo(1);
    // One doubling of weighted engagement makes up for two days of age.
    const older = { ...base, views: 3 };
    const newer = { ...base, views: 1, lastActivityAt: later };
    expect(activityScore(older)).toBeCloseTo(activityScore(newer));
  });

  it('bands scores by tenths', () => {
    expect(scoreBand(12.34)).toBe(123);
    expect(scoreBand(0.09)).toBe(0);
    expect(scoreBand(-0.01)).toBe(-1);
  });
});

describe('lastActivityAt', () => {
  it('is the latest of creation, content, comment and like', () => {
    const createdAt = new Date('2026-01-01T00:00:00Z');
    expect(lastActivityAt({ createdAt, lastContentAddedAt: null, lastCommentAt: null, lastLikeAt: null })).toEqual(createdAt);
    expect(
      lastActivityAt({ createdAt, lastContentAddedAt: new Date('2026-01-03T00:00:00Z'), lastCommentAt: new Date('2026-01-02T00:00:00Z'), lastLikeAt: null }),
    ).toEqual(new Date('2026-01-03T00:00:00Z'));
  });
});
