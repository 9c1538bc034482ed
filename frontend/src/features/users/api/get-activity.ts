import { api, nextCursorOf, type ApiSchemas } from '../../../lib/api-client';
import { USER_LIST_PAGE_SIZE, type UserListPage } from './user-list-page';

export type Activity = ApiSchemas['ActivityDto'];

/** A person's recent activity, one page; the next page's cursor comes in `X-Next-Cursor`. */
export async function getActivityPage(id: string, cursor?: string): Promise<UserListPage<Activity>> {
  const { data, response } = await api.GET('/api/users/{id}/activity', {
    params: { path: { id }, query: cursor ? { limit: USER_LIST_PAGE_SIZE, cursor } : { limit: USER_LIST_PAGE_SIZE } },
  });
  return { items: Array.isArray(data) ? data : [], nextCursor: nextCursorOf(response, cursor) };
}
