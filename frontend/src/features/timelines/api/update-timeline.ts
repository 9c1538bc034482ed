import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { MY_TIMELINES_QUERY_KEY } from './get-my-timelines';
import { timelineQueryKey, type Timeline } from './get-timeline';

export type UpdateTimelineInput = ApiSchemas['UpdateTimelineDto'];

export function updateTimeline(id: string, body: UpdateTimelineInput): Promise<Timeline> {
  return unwrap(api.PATCH('/api/timelines/{id}', { params: { path: { id } }, body }));
}

type Variables = { id: string; changes: UpdateTimelineInput };
type Config = Omit<UseMutationOptions<Timeline, Error, Variables>, 'mutationFn'>;

/** The answer replaces the timeline; the caller's list shows the same title, status and visibility. */
export function useUpdateTimeline(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ id, changes }: Variables) => updateTimeline(id, changes),
    onSuccess: (timeline, ...rest) => {
      queryClient.setQueryData(timelineQueryKey(timeline.id), timeline);
      void queryClient.invalidateQueries({ queryKey: MY_TIMELINES_QUERY_KEY });
      return config.onSuccess?.(timeline, ...rest);
    },
  });
}
