// The profile's lists: their tabs, their cache keys, and one infinite query over whichever list a
// tab shows (each list's endpoint has a file of its own).
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { getActivityPage, type Activity } from './get-activity';
import { getFollowersPage, type Person } from './get-followers';
import { getFollowingListPage } from './get-following-list';
import { userQueryKey } from './get-profile';
import { getUserTimelinesPage, type UserTimeline } from './get-user-timelines';
import type { UserListPage } from './user-list-page';

export type { Activity } from './get-activity';
export type { Person } from './get-followers';
export type { UserTimeline } from './get-user-timelines';
export type { UserListPage } from './user-list-page';

/** A person's lists, as the profile's tabs show them (each a cursor-paginated endpoint of its own). */
export type UserListKind = 'timelines' | 'followers' | 'following-list' | 'activity';

export interface UserListItem {
  timelines: UserTimeline;
  followers: Person;
  'following-list': Person;
  activity: Activity;
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

export const userListQueryKey = (id: string, kind: UserListKind) => [...userQueryKey(id), kind] as const;

/** The lists that show people (and whether the caller follows each). */
export const PEOPLE_LISTS: readonly UserListKind[] = ['followers', 'following-list'];

/** Each list's endpoint (GET /api/users/{id}/<kind>), one page at a time. */
const LIST_PAGES: { [K in UserListKind]: (id: string, cursor?: string) => Promise<UserListPage<UserListItem[K]>> } = {
  timelines: getUserTimelinesPage,
  followers: getFollowersPage,
  'following-list': getFollowingListPage,
  activity: getActivityPage,
};

export function getUserListPage<K extends UserListKind>(id: string, kind: K, cursor?: string): Promise<UserListPage<UserListItem[K]>> {
  return LIST_PAGES[kind](id, cursor);
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
