import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type FollowRequest = ApiSchemas['FollowRequestDto'];

/** The caller's pending follow requests and their count (a private account's owner). */
export const followRequestsQueryKey = ['follow-requests'] as const;
export const followRequestCountQueryKey = ['follow-requests', 'count'] as const;

/** The people waiting for the caller's answer, newest first (the first 100). */
export function getFollowRequests(): Promise<FollowRequest[]> {
  return unwrap(api.GET('/api/follow-requests', { params: { query: { limit: 100 } } }));
}

export function getFollowRequestCount(): Promise<number> {
  return unwrap(api.GET('/api/follow-requests/count')).then((answer) => answer.count);
}

export function useFollowRequests() {
  return useQuery(queryOptions({ queryKey: followRequestsQueryKey, queryFn: getFollowRequests }));
}

export function useFollowRequestCount(enabled = true) {
  return useQuery(queryOptions({ queryKey: followRequestCountQueryKey, queryFn: getFollowRequestCount, enabled }));
}

export interface FollowRequestAnswer {
  userId: string;
  approve: boolean;
}

/** Approves or declines one request; the list and the count are asked again after it. */
export function useAnswerFollowRequest({ onError }: { onError?: (error: Error, answer: FollowRequestAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, approve }: FollowRequestAnswer) => {
      const params = { params: { path: { userId } } };
      return unwrap(approve ? api.POST('/api/follow-requests/{userId}/approve', params) : api.POST('/api/follow-requests/{userId}/decline', params));
    },
    onMutate: ({ userId }) => {
      // The row leaves the list at once.
      queryClient.setQueryData<FollowRequest[]>(followRequestsQueryKey, (rows) => rows?.filter((row) => row.id !== userId));
    },
    onError: (error, answer) => onError?.(error, answer),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: followRequestsQueryKey });
      void queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] === 'users' });
    },
  });
}
