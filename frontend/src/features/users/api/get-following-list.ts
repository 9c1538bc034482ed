import { api, nextCursorOf } from '../../../lib/api-client';
import type { Person } from './get-followers';
import { USER_LIST_PAGE_SIZE, type UserListPage } from './user-list-page';

/** The people a person follows (and whether the caller follows each), one page; the next page's cursor comes in `X-Next-Cursor`. */
export async function getFollowingListPage(id: string, cursor?: string): Promise<UserListPage<Person>> {
  const { data, response } = await api.GET('/api/users/{id}/following-list', {
    params: { path: { id }, query: cursor ? { limit: USER_LIST_PAGE_SIZE, cursor } : { limit: USER_LIST_PAGE_SIZE } },
  });
  return { items: Array.isArray(data) ? data : [], nextCursor: nextCursorOf(response, cursor) };
}
