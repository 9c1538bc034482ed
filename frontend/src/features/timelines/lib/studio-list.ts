import { preload } from 'react-dom';
import type { MyTimeline } from '../api/get-my-timelines';
import { canEditTimeline } from './labels';
import { byCreatedDesc } from './timeline-lists';

/** Cards whose pictures load first: what a phone shows before any scrolling. */
export const STUDIO_FIRST_CARDS = 2;

/** The studio's own list: the timelines one owns or edits, newest first. */
export function studioOwnTimelines(all: readonly MyTimeline[]): MyTimeline[] {
  return all.filter((timeline) => canEditTimeline(timeline.role)).sort(byCreatedDesc);
}

/** A thumbnail URL the list signed (`?access=`): an <img> loads it without the session. */
export function isSignedThumbnail(url: string): boolean {
  return /[?&]access=/.test(url);
}

/**
 * Asks for the first cards' pictures as soon as the list arrives, while the page is still being
 * drawn, so the browser has them when the cards' <img> elements come (same URL, same priority).
 */
export function preloadStudioThumbnails(all: readonly MyTimeline[]): void {
  for (const timeline of studioOwnTimelines(all).slice(0, STUDIO_FIRST_CARDS)) {
    const url = timeline.thumbnailUrl;
    if (url && isSignedThumbnail(url)) preload(url, { as: 'image', fetchPriority: 'high' });
  }
}
