import { describe, expect, it } from '@jest/globals';
import { ContentRateLimiter, isContentWrite } from './content-rate-limit.js';

describe('isContentWrite', () => {
  it('names the POSTs that create content for others', () => {
    for (const path of ['/api/timelines', '/api/posts', '/api/reports', '/api/timelines/t1/comments', '/api/posts/p1/comments', '/api/videos/v1/comments', '/api/videos/v1/comments/c1/replies', '/api/timelines/t1/invite', '/api/timelines/t1/export', '/api/invitations/i1/resend']) {
      expect([path, isContentWrite('POST', path)]).toEqual([path, true]);
    }
  });

  it('leaves reads, toggles and uploads alone', () => {
    expect(isContentWrite('GET', '/api/timelines/t1/comments')).toBe(false);
    expect(isContentWrite('POST', '/api/timelines/t1/like')).toBe(false);
    expect(isContentWrite('POST', '/api/uploads')).toBe(false);
    expect(isContentWrite('POST', '/api/timelines/t1/views')).toBe(false);
    expect(isContentWrite('PATCH', '/api/timelines/t1')).toBe(false);
  });
});

describe('ContentRateLimiter', () => {
  it('allows max writes per window per person, then says how long to wait', () => {
    let now = 0;
    const limiter = new ContentRateLimiter(3, 60_000, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(60);
    expect(limiter.take('b')).toBe(0);
    now = 45_500;
    expect(limiter.take('a')).toBe(15);
    now = 60_000;
    expect(limiter.take('a')).toBe(0);
  });
});
