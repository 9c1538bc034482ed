import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequestWithHeaders, type ApiSchemas } from '../../../lib/api-client';
import { userQueryKey } from './get-profile';

export type Person = ApiSchemas['FollowPersonDto'];
export type UserTimeline = ApiSchemas['UserTimelineDto'];
export type Activity = ApiSchemas['ActivityDto'];

/** A person's lists, as the profile's tabs show them (each a cursor-paginated call). */
export type UserListKind = 'timelines' | 'followers' | 'following-list' | 'activity';

export interface UserListItem {
  timelines: UserTimeline;
  followers: Person;
  'following-list': Person;
  activity: Activity;
}

export interface UserListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** The profile's tabs (spec 001, "Profile"), each showing one list; the open one is `?tab=`. */
export const PROFILE_TABS = [
  { value: 'timelines', label: 'Timelines', list: 'timelines' },
  { value: 'followers', label: 'Followers', list: 'followers' },
  { value: 'following', label: 'Following', list: 'following-list' },
  { value: 'activity', label: 'Activity', list: 'activity' },
] as const satisfies readonly { value: string; label: string; list: UserListKind }[];

export type ProfileTab = (typeof PROFILE_TABS)[number];

/** The tab a `?tab=` value names; Timelines for none or an unknown one. */
export function profileTabOf(value: string | null): ProfileTab {
  return PROFILE_TABS.find((tab) => tab.value === value) ?? PROFILE_TABS[0];
}

/** Items per page of a profile tab. */
export const USER_LIST_PAGE_SIZE = 20;

export const userListQueryKey = (id: string, kind: UserListKind) => [...userQueryKey(id), kind] as const;

/** The lists that show people (and whether the caller follows each). */
export const PEOPLE_LISTS: readonly UserListKind[] = ['followers', 'following-list'];

export async function getUserListPage<K extends UserListKind>(id: string, kind: K, cursor?: string): Promise<UserListPage<UserListItem[K]>> {
  const query = new URLSearchParams({ limit: String(USER_LIST_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  const { data, headers } = await apiRequestWithHeaders<UserListItem[K][]>(
    'GET',
    `/api/users/${encodeURIComponent(id)}/${kind}?${query.toString()}`,
  );
  const next = headers.get('X-Next-Cursor');
  return { items: Array.isArray(data) ? data : [], nextCursor: next && next !== cursor ? next : null };
}

export function getUserListQueryOptions<K extends UserListKind>(id: string, kind: K) {
  return infiniteQueryOptions({
    queryKey: userListQueryKey(id, kind),
    queryFn: ({ pageParam }) => getUserListPage(id, kind, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useUserList<K extends UserListKind>(id: string, kind: K) {
  return useInfiniteQuery(getUserListQueryOptions(id, kind));
}
