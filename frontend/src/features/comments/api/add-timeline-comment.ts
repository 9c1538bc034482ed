import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { timelineCommentsQueryKey, type TimelineComment } from './get-timeline-comments';

export type AddTimelineCommentInput = ApiSchemas['CreateTimelineCommentDto'];

export function addTimelineComment(timelineId: string, body: AddTimelineCommentInput): Promise<TimelineComment> {
  return unwrap(api.POST('/api/timelines/{id}/comments', { params: { path: { id: timelineId } }, body }));
}

type Variables = { timelineId: string; comment: AddTimelineCommentInput };
type Config = Omit<UseMutationOptions<TimelineComment, Error, Variables>, 'mutationFn'>;

/** The comment list is asked again; the timeline's comment count is the page's to refresh. */
export function useAddTimelineComment(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ timelineId, comment }: Variables) => addTimelineComment(timelineId, comment),
    onSuccess: (comment, variables, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: timelineCommentsQueryKey(variables.timelineId) });
      return config.onSuccess?.(comment, variables, ...rest);
    },
  });
}
