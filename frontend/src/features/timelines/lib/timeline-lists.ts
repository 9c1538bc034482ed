import type { TimelineStatus } from '../api/get-timeline';

interface Searchable {
  title: string;
  description?: string | null;
}

/** Case-insensitive substring match on title or description (spec 000, section 5). */
export function matchesSearch(timeline: Searchable, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return timeline.title.toLowerCase().includes(needle) || (timeline.description ?? '').toLowerCase().includes(needle);
}

/** Newest update first (the picker's order). */
export function byUpdatedDesc<T extends { updatedAt: string }>(a: T, b: T): number {
  return new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime();
}

/** Newest first by creation (the studio and dashboard order). */
export function byCreatedDesc<T extends { createdAt: string }>(a: T, b: T): number {
  return new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime();
}

export type StatusFilter = 'all' | TimelineStatus;

export const STATUS_FILTER_OPTIONS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All Timelines' },
  { value: 'draft', label: 'Draft' },
  { value: 'processing', label: 'Processing' },
  { value: 'published', label: 'Published' },
];

export function filterTimelines<T extends Searchable & { status: TimelineStatus }>(
  timelines: readonly T[],
  query: string,
  status: StatusFilter,
): T[] {
  return timelines.filter((timeline) => (status === 'all' || timeline.status === status) && matchesSearch(timeline, query));
}

export interface DashboardSummary {
  total: number;
  published: number;
  views: number;
  /** Whole minutes of all timelines together. */
  minutes: number;
}

export function summarize(timelines: readonly { status: TimelineStatus; views: number; duration: number }[]): DashboardSummary {
  let views = 0;
  let seconds = 0;
  let published = 0;
  for (const timeline of timelines) {
    views += timeline.views;
    seconds += timeline.duration;
    if (timeline.status === 'published') published += 1;
  }
  return { total: timelines.length, published, views, minutes: Math.floor(seconds / 60) };
}
