import { api, nextCursorOf, type ApiSchemas } from '../../../lib/api-client';
import { USER_LIST_PAGE_SIZE, type UserListPage } from './user-list-page';

export type UserTimeline = ApiSchemas['UserTimelineDto'];

/** A person's timelines, one page; the next page's cursor comes in `X-Next-Cursor`. */
export async function getUserTimelinesPage(id: string, cursor?: string): Promise<UserListPage<UserTimeline>> {
  const { data, response } = await api.GET('/api/users/{id}/timelines', {
    params: { path: { id }, query: cursor ? { limit: USER_LIST_PAGE_SIZE, cursor } : { limit: USER_LIST_PAGE_SIZE } },
  });
  return { items: Array.isArray(data) ? data : [], nextCursor: nextCursorOf(response, cursor) };
}
