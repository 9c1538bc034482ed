import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { timelineCommentsQueryKey, type TimelineComment } from './get-timeline-comments';

type CreateTimelineComment = ApiSchemas['CreateTimelineCommentDto'];
/** The server takes 0 when `timestamp` is left out (a feed card sends `{content}` only, spec 000). */
export type AddTimelineCommentInput = Omit<CreateTimelineComment, 'timestamp'> & Partial<Pick<CreateTimelineComment, 'timestamp'>>;

export function addTimelineComment(timelineId: string, body: AddTimelineCommentInput): Promise<TimelineComment> {
  return unwrap(api.POST('/api/timelines/{id}/comments', { params: { path: { id: timelineId } }, body: body as CreateTimelineComment }));
}

type Variables = { timelineId: string; comment: AddTimelineCommentInput };
type Config = Omit<UseMutationOptions<TimelineComment, Error, Variables>, 'mutationFn'>;

/**
 * Adds a comment to a timeline. The new comment is shown at once at the top of the cached list
 * (newest first), which is then asked again. The timeline's comment count is another feature's
 * (the page's `onSuccess` counts it where it shows it).
 */
export function useAddTimelineComment(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ timelineId, comment }: Variables) => addTimelineComment(timelineId, comment),
    onSuccess: (comment, variables, ...rest) => {
      const { timelineId } = variables;
      queryClient.setQueryData<TimelineComment[]>(timelineCommentsQueryKey(timelineId), (list) =>
        list ? [comment, ...list.filter((existing) => existing.id !== comment.id)] : list,
      );
      void queryClient.invalidateQueries({ queryKey: timelineCommentsQueryKey(timelineId) });
      return config.onSuccess?.(comment, variables, ...rest);
    },
  });
}
