import { describe, expect, it } from '@jest/globals';
import { videoFixture } from '../../../testing/media-fixtures';
import { itemLength, locateOnTimeline, timelineClock, UNKNOWN_LENGTH_S, videoChapters } from './video-chapters';

const withDescription = (text: string | null, overrides: Record<string, unknown> = {}) => videoFixture({ altText: text, ...overrides } as Parameters<typeof videoFixture>[0]);

describe('videoChapters', () => {
  it("reads the mm:ss lines of a video's description, up to its length", () => {
    expect(videoChapters(withDescription('Our walk.\n0:00 Start\n0:40 Bridge\n2:00 Past the end'))).toEqual([
      { start: 0, title: 'Start' },
      { start: 40, title: 'Bridge' },
    ]);
    expect(videoChapters(withDescription(null))).toEqual([]);
    expect(videoChapters(videoFixture())).toEqual([]);
  });

  it('gives an image none', () => {
    expect(videoChapters(withDescription('0:00 Start', { mediaType: 'image' }))).toEqual([]);
  });
});

describe('the timeline as one clock', () => {
  it("gives each item a length: its own, an image's time on screen, a stand-in while unknown", () => {
    expect(itemLength(videoFixture({ duration: 42 }))).toBe(42);
    expect(itemLength(videoFixture({ mediaType: 'image', duration: 0 }))).toBe(5);
    expect(itemLength(videoFixture({ duration: 0 }))).toBe(UNKNOWN_LENGTH_S);
  });

  it('places a point on it in an item', () => {
    const lengths = [60, 5, 30];
    const { starts, total } = timelineClock(lengths);
    expect(starts).toEqual([0, 60, 65]);
    expect(total).toBe(95);
    expect(locateOnTimeline(starts, lengths, 0)).toEqual({ index: 0, seconds: 0 });
    expect(locateOnTimeline(starts, lengths, 59)).toEqual({ index: 0, seconds: 59 });
    expect(locateOnTimeline(starts, lengths, 60)).toEqual({ index: 1, seconds: 0 });
    expect(locateOnTimeline(starts, lengths, 70)).toEqual({ index: 2, seconds: 5 });
    // The very end: just before the last item's end, not past it.
    expect(locateOnTimeline(starts, lengths, 95)).toEqual({ index: 2, seconds: 29.5 });
    expect(locateOnTimeline([], [], 10)).toEqual({ index: 0, seconds: 0 });
  });
});
