import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { timelineCommentsQueryKey } from './get-timeline-comments';

export type CommentSettings = ApiSchemas['CommentSettingsDto'];
export type CommentSettingsInput = ApiSchemas['UpdateCommentSettingsDto'];
export type HeldComment = ApiSchemas['HeldCommentDto'];
export type WhoMayComment = CommentSettings['whoMayComment'];

/** A timeline's comment settings as the caller may know them: whether they may comment, and why not. */
export const commentSettingsQueryKey = (timelineId: string) => ['comments', 'timeline', timelineId, 'settings'] as const;
/** The timeline's approval queue (its comments and its videos' waiting for approval). */
export const heldCommentsQueryKey = (timelineId: string) => ['comments', 'timeline', timelineId, 'held'] as const;

export function getCommentSettingsQueryOptions(timelineId: string) {
  return queryOptions({
    queryKey: commentSettingsQueryKey(timelineId),
    queryFn: () => unwrap(api.GET('/api/timelines/{id}/comment-settings', { params: { path: { id: timelineId } } })),
  });
}

export function useCommentSettings(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getCommentSettingsQueryOptions(timelineId), enabled });
}

export function useHeldComments(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: heldCommentsQueryKey(timelineId),
    queryFn: () => unwrap(api.GET('/api/timelines/{id}/held-comments', { params: { path: { id: timelineId }, query: { limit: 100 } } })),
    enabled,
  });
}

/** Everything the comment controls change: the list, the queue and its count are asked again. */
function useRefreshComments(timelineId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: timelineCommentsQueryKey(timelineId) });
}

export function useSaveCommentSettings(timelineId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CommentSettingsInput) => unwrap(api.PUT('/api/timelines/{id}/comment-settings', { params: { path: { id: timelineId } }, body })),
    onSuccess: (settings) => client.setQueryData(commentSettingsQueryKey(timelineId), settings),
  });
}

/** Approves a held comment: on the timeline itself, or on one of its videos. */
export function useApproveComment(timelineId: string) {
  const refresh = useRefreshComments(timelineId);
  return useMutation({
    mutationFn: async (comment: Pick<HeldComment, 'id' | 'kind' | 'targetId'>) => {
      if (comment.kind === 'video') {
        await api.POST('/api/videos/{id}/comments/{commentId}/approve', { params: { path: { id: comment.targetId, commentId: comment.id } } });
      } else {
        await api.POST('/api/timelines/{id}/comments/{commentId}/approve', { params: { path: { id: timelineId, commentId: comment.id } } });
      }
    },
    onSettled: refresh,
  });
}

/** Deletes a comment: one's own, or any as the timeline's owner or an editor. */
export function useDeleteComment(timelineId: string) {
  const refresh = useRefreshComments(timelineId);
  return useMutation({
    mutationFn: async (comment: Pick<HeldComment, 'id' | 'kind' | 'targetId'>) => {
      if (comment.kind === 'video') {
        await api.DELETE('/api/videos/{id}/comments/{commentId}', { params: { path: { id: comment.targetId, commentId: comment.id } } });
      } else {
        await api.DELETE('/api/timelines/{id}/comments/{commentId}', { params: { path: { id: timelineId, commentId: comment.id } } });
      }
    },
    onSettled: refresh,
  });
}

/** Pins a timeline comment (in place of the one pinned before) or unpins it. */
export function usePinComment(timelineId: string) {
  const refresh = useRefreshComments(timelineId);
  return useMutation({
    mutationFn: async ({ commentId, pinned }: { commentId: string; pinned: boolean }) => {
      const params = { params: { path: { id: timelineId, commentId } } };
      if (pinned) await api.PUT('/api/timelines/{id}/comments/{commentId}/pin', params);
      else await api.DELETE('/api/timelines/{id}/comments/{commentId}/pin', params);
    },
    onSettled: refresh,
  });
}
