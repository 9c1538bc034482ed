import { chaptersFromText, type Chapter } from '../../../lib/chapters';
import type { Video } from '../api/types';
import { IMAGE_SLIDE_MS } from '../components/image-slide';

/** The length given on the timeline's scrubber to an item whose length is not known yet. */
export const UNKNOWN_LENGTH_S = 10;

/**
 * The chapters inside a video: the `mm:ss Title` lines of its description (`altText`, a video's
 * short description), up to its length. (The media service keeps no chapters of the file's own.)
 * Images have none.
 */
export function videoChapters(video: Video, duration = video.duration): Chapter[] {
  if (video.mediaType === 'image') return [];
  const description = (video as { altText?: unknown }).altText;
  return typeof description === 'string' ? chaptersFromText(description, duration) : [];
}

/** How long an item lasts on the timeline's scrubber: its length, an image's time on screen, or a stand-in. */
export function itemLength(video: Video): number {
  if (video.mediaType === 'image') return IMAGE_SLIDE_MS / 1000;
  return video.duration > 0 ? video.duration : UNKNOWN_LENGTH_S;
}

/** The timeline as one clock: each item's start on it, and the whole length. */
export function timelineClock(lengths: readonly number[]): { starts: number[]; total: number } {
  const starts: number[] = [];
  let total = 0;
  for (const length of lengths) {
    starts.push(total);
    total += length;
  }
  return { starts, total };
}

/** Which item, and how far into it, a point on the timeline's clock falls. */
export function locateOnTimeline(starts: readonly number[], lengths: readonly number[], at: number): { index: number; seconds: number } {
  if (starts.length === 0) return { index: 0, seconds: 0 };
  let index = 0;
  for (let i = 0; i < starts.length; i += 1) if ((starts[i] ?? 0) <= at) index = i;
  const seconds = Math.max(0, Math.min(at - (starts[index] ?? 0), Math.max(0, (lengths[index] ?? 0) - 0.5)));
  return { index, seconds };
}
