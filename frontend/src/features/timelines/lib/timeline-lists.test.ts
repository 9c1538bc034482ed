import { describe, expect, it } from '@jest/globals';
import { byUpdatedDesc, filterTimelines, matchesSearch, summarize } from './timeline-lists';

const timelines = [
  { title: 'Summer Trip', description: 'Coastal ROAD trip', status: 'published' as const, views: 100, duration: 125, updatedAt: '2025-03-01T00:00:00Z' },
  { title: 'Wedding', description: null, status: 'draft' as const, views: 20, duration: 3600, updatedAt: '2025-03-05T00:00:00Z' },
  { title: 'Concert', description: 'Live', status: 'processing' as const, views: 0, duration: 59, updatedAt: '2025-02-01T00:00:00Z' },
];

describe('timeline lists', () => {
  it('matches a case-insensitive substring of the title or the description', () => {
    expect(matchesSearch(timelines[0]!, 'summer')).toBe(true);
    expect(matchesSearch(timelines[0]!, 'road')).toBe(true);
    expect(matchesSearch(timelines[1]!, 'road')).toBe(false);
    expect(matchesSearch(timelines[1]!, '  ')).toBe(true);
  });

  it('filters by status and search together', () => {
    expect(filterTimelines(timelines, '', 'all')).toHaveLength(3);
    expect(filterTimelines(timelines, '', 'draft').map((t) => t.title)).toEqual(['Wedding']);
    expect(filterTimelines(timelines, 'live', 'processing').map((t) => t.title)).toEqual(['Concert']);
    expect(filterTimelines(timelines, 'live', 'draft')).toEqual([]);
  });

  it('sorts by last update, newest first', () => {
    expect([...timelines].sort(byUpdatedDesc).map((t) => t.title)).toEqual(['Wedding', 'Summer Trip', 'Concert']);
  });

  it('totals timelines, published ones, views and whole minutes', () => {
    expect(summarize(timelines)).toEqual({ total: 3, published: 1, views: 120, minutes: 63 });
    expect(summarize([])).toEqual({ total: 0, published: 0, views: 0, minutes: 0 });
  });
});
