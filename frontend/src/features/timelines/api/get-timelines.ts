import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Timeline } from './get-timeline';

export const TIMELINES_QUERY_KEY = ['timelines', 'all'] as const;

/** The first page of every timeline the caller may see, in feed order (the player swipes through it). */
export function getTimelines(): Promise<Timeline[]> {
  return unwrap(api.GET('/api/timelines', { params: { query: { limit: 100 } } }));
}

export function getTimelinesQueryOptions() {
  return queryOptions({ queryKey: TIMELINES_QUERY_KEY, queryFn: getTimelines });
}

export function useTimelines({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getTimelinesQueryOptions(), enabled });
}

/** The timelines before and after `id` in `list`; around none when it is not listed. */
export function neighbours(list: readonly Pick<Timeline, 'id'>[], id: string): { previous?: string; next?: string } {
  const at = list.findIndex((timeline) => timeline.id === id);
  if (at < 0) return { next: list[0]?.id };
  return { previous: list[at - 1]?.id, next: list[at + 1]?.id };
}
