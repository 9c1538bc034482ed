import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { MY_TIMELINES_QUERY_KEY } from './get-my-timelines';
import { timelineQueryKey, type Timeline } from './get-timeline';

export type CreateTimelineInput = ApiSchemas['CreateTimelineDto'];

export function createTimeline(body: CreateTimelineInput): Promise<Timeline> {
  return unwrap(api.POST('/api/timelines', { body }));
}

type Config = Omit<UseMutationOptions<Timeline, Error, CreateTimelineInput>, 'mutationFn'>;

/** The new timeline joins the caller's list; its detail is known from the answer. */
export function useCreateTimeline(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createTimeline,
    onSuccess: (timeline, ...rest) => {
      queryClient.setQueryData(timelineQueryKey(timeline.id), timeline);
      void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
      return config.onSuccess?.(timeline, ...rest);
    },
  });
}
