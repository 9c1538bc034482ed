import { describe, expect, it } from '@jest/globals';
import { isContentWrite, WindowLimit } from './content-rate-limit.js';
import { MemoryRateCounter } from './rate-counter.js';

describe('isContentWrite', () => {
  it('names the POSTs that create content for others', () => {
    for (const path of ['/api/timelines', '/api/posts', '/api/reports', '/api/timelines/t1/comments', '/api/posts/p1/comments', '/api/videos/v1/comments', '/api/videos/v1/comments/c1/replies', '/api/timelines/t1/invite', '/api/timelines/t1/export', '/api/invitations/i1/resend', '/api/collections', '/api/media/avatar']) {
      expect([path, isContentWrite('POST', path)]).toEqual([path, true]);
    }
  });

  it('leaves reads, toggles and uploads alone', () => {
    expect(isContentWrite('GET', '/api/timelines/t1/comments')).toBe(false);
    expect(isContentWrite('POST', '/api/timelines/t1/like')).toBe(false);
    expect(isContentWrite('POST', '/api/uploads')).toBe(false);
    expect(isContentWrite('POST', '/api/timelines/t1/views')).toBe(false);
    expect(isContentWrite('PATCH', '/api/timelines/t1')).toBe(false);
    expect(isContentWrite('POST', '/api/search/history')).toBe(false);
    expect(isContentWrite('POST', '/api/notifications/read-all')).toBe(false);
  });
});

describe('WindowLimit', () => {
  it('allows max hits per window per subject, then says how long to wait', async () => {
    let now = 0;
    const limit = new WindowLimit(new MemoryRateCounter(() => now), 'content', 3, 60_000);
    expect([await limit.take('a'), await limit.take('a'), await limit.take('a')]).toEqual([0, 0, 0]);
    expect(await limit.take('a')).toBe(60);
    expect(await limit.take('b')).toBe(0);
    now = 45_500;
    expect(await limit.take('a')).toBe(15);
    now = 60_000;
    expect(await limit.take('a')).toBe(0);
  });

  it('keeps two limits on one counter apart', async () => {
    const counter = new MemoryRateCounter();
    const content = new WindowLimit(counter, 'content', 1, 60_000);
    const anonymous = new WindowLimit(counter, 'anonymous', 1, 60_000);
    expect([await content.take('a'), await anonymous.take('a')]).toEqual([0, 0]);
    expect(await content.take('a')).toBeGreaterThan(0);
  });
});
