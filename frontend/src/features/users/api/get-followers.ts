import { api, nextCursorOf, type ApiSchemas } from '../../../lib/api-client';
import { USER_LIST_PAGE_SIZE, type UserListPage } from './user-list-page';

export type Person = ApiSchemas['FollowPersonDto'];

/** The people who follow a person (and whether the caller follows each), one page; the next page's cursor comes in `X-Next-Cursor`. */
export async function getFollowersPage(id: string, cursor?: string): Promise<UserListPage<Person>> {
  const { data, response } = await api.GET('/api/users/{id}/followers', {
    params: { path: { id }, query: cursor ? { limit: USER_LIST_PAGE_SIZE, cursor } : { limit: USER_LIST_PAGE_SIZE } },
  });
  return { items: Array.isArray(data) ? data : [], nextCursor: nextCursorOf(response, cursor) };
}
