import { afterEach, describe, expect, it } from '@jest/globals';
import { feedQuality, pictureHeight } from './feed-quality';
import { acquireSlot, holdsSlot, releaseSlot, resetSlots } from './playback-slots';

afterEach(() => resetSlots());

describe('feed video playback slots', () => {
  it('lets at most `limit` videos play; the next waits until one is released', () => {
    expect(acquireSlot('a', 2)).toBe(true);
    expect(acquireSlot('b', 2)).toBe(true);
    expect(acquireSlot('c', 2)).toBe(false);
    releaseSlot('a');
    expect(acquireSlot('c', 2)).toBe(true);
    expect(['a', 'b', 'c'].map(holdsSlot)).toEqual([false, true, true]);
  });

  it('gives a video started by hand the oldest slot', () => {
    acquireSlot('a', 1);
    expect(acquireSlot('b', 1, true)).toBe(true);
    expect(holdsSlot('a')).toBe(false);
    expect(holdsSlot('b')).toBe(true);
  });
});

describe('feed video quality', () => {
  it('picks the lowest rendition covering the picture, never above the cap', () => {
    expect(feedQuality(pictureHeight(375, 600, 1), '720p')).toBe('360p');
    expect(feedQuality(pictureHeight(375, 600, 2), '720p')).toBe('720p');
    expect(feedQuality(pictureHeight(640, 600, 3), '360p')).toBe('360p');
    expect(feedQuality(100, '720p')).toBe('144p');
  });
});
