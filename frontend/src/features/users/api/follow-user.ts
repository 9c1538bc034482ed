import { useMutation, useQueryClient, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { followStatusQueryKey, type FollowStatus } from './get-follow-status';
import { PEOPLE_LISTS, type Person, type UserListPage } from './user-lists';

export function setFollowing(id: string, follow: boolean): Promise<FollowStatus> {
  const params = { params: { path: { id } } };
  return unwrap(follow ? api.POST('/api/users/{id}/follow', params) : api.DELETE('/api/users/{id}/follow', params));
}

type PeoplePages = InfiniteData<UserListPage<Person>, string | undefined>;

const isPeopleList = (key: QueryKey) => key[0] === 'users' && PEOPLE_LISTS.includes(key[2] as (typeof PEOPLE_LISTS)[number]);

/**
 * Shows the change everywhere the person appears before the server answers: their follow button
 * and follower count, and their row in any cached followers or following list. Returns the undo.
 */
function showFollowing(queryClient: QueryClient, id: string, follow: boolean, privateAccount = false): () => void {
  const statusKey = followStatusQueryKey(id);
  const previousStatus = queryClient.getQueryData<FollowStatus>(statusKey);
  const previousLists = queryClient.getQueriesData<PeoplePages>({ predicate: (query) => isPeopleList(query.queryKey) });

  // A private account is asked, not followed: the button says Requested, no count moves.
  if (previousStatus && privateAccount && follow && !previousStatus.isFollowing) {
    queryClient.setQueryData<FollowStatus>(statusKey, { ...previousStatus, isRequested: true });
    return () => queryClient.setQueryData(statusKey, previousStatus);
  }
  if (previousStatus && !follow && previousStatus.isRequested) {
    queryClient.setQueryData<FollowStatus>(statusKey, { ...previousStatus, isRequested: false });
    return () => queryClient.setQueryData(statusKey, previousStatus);
  }

  if (previousStatus && previousStatus.isFollowing !== follow) {
    queryClient.setQueryData<FollowStatus>(statusKey, {
      ...previousStatus,
      isFollowing: follow,
      followersCount: Math.max(0, previousStatus.followersCount + (follow ? 1 : -1)),
    });
  }
  queryClient.setQueriesData<PeoplePages>({ predicate: (query) => isPeopleList(query.queryKey) }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((person) => (person.id === id ? { ...person, isFollowing: follow } : person)),
          })),
        }
      : data,
  );

  return () => {
    queryClient.setQueryData(statusKey, previousStatus);
    for (const [key, data] of previousLists) queryClient.setQueryData(key, data);
  };
}

export interface FollowChange {
  follow: boolean;
}

/**
 * Follows or unfollows `id` as `viewerId`, optimistically: the button and the counts change at
 * once and go back if the server refuses (the caller shows why). Following a private account
 * (`privateAccount`) asks it: the button says Requested until the owner answers. Afterwards the lists that
 * changed are asked again: the person's followers, the viewer's following, and (a private
 * account opening to a new follower) the person's activity and following.
 */
export function useFollow(
  id: string,
  viewerId: string | undefined,
  { onError, privateAccount = false }: { onError?: (error: Error, change: FollowChange) => void; privateAccount?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['follow', id],
    mutationFn: ({ follow }: FollowChange) => setFollowing(id, follow),
    onMutate: async ({ follow }) => {
      await queryClient.cancelQueries({ queryKey: followStatusQueryKey(id) });
      return { undo: showFollowing(queryClient, id, follow, privateAccount) };
    },
    onError: (error, change, context) => {
      context?.undo();
      onError?.(error, change);
    },
    onSuccess: (status) => {
      queryClient.setQueryData(followStatusQueryKey(id), status);
    },
    onSettled: () => {
      const stale = (owner: string, kinds: readonly string[]) =>
        queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] === 'users' && queryKey[1] === owner && kinds.includes(queryKey[2] as string) });
      void stale(id, ['profile', 'followers', 'following-list', 'activity']);
      if (viewerId) void stale(viewerId, ['profile', 'follow-status', 'following-list', 'activity']);
    },
  });
}
