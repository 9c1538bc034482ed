import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type ApiSchemas } from '../../../lib/api-client';

/** A timeline the signed-in user owns or collaborates on. */
export type MyTimeline = ApiSchemas['TimelineDto'];

export const MY_TIMELINES_QUERY_KEY = ['timelines', 'mine'] as const;

/** The server's largest page. */
const PAGE_SIZE = 100;
/** A bound on pages followed, so a server that never ends the list cannot loop us forever. */
const MAX_PAGES = 50;

/**
 * Every timeline the signed-in user owns or collaborates on, all pages of them: the studio, the
 * dashboard's totals and the picker's search need the whole list, not its first page.
 */
export async function getMyTimelines(): Promise<MyTimeline[]> {
  const timelines: MyTimeline[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data, response } = await api.GET('/api/my-timelines', {
      params: { query: cursor ? { limit: PAGE_SIZE, cursor } : { limit: PAGE_SIZE } },
    });
    timelines.push(...(data ?? []));
    const next = response.headers.get('X-Next-Cursor');
    if (!next || next === cursor) break;
    cursor = next;
  }
  return timelines;
}

export function getMyTimelinesQueryOptions() {
  return queryOptions({ queryKey: MY_TIMELINES_QUERY_KEY, queryFn: getMyTimelines });
}

export function useMyTimelines({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getMyTimelinesQueryOptions(), enabled });
}
