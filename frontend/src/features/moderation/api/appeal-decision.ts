import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { MODERATION_NOTICES_QUERY_KEY } from './get-moderation-notices';

/** Appeals a decision once (POST /api/moderation-notices/{actionId}/appeal). */
export function appealDecision(input: { actionId: string; text: string }) {
  return unwrap(api.POST('/api/moderation-notices/{actionId}/appeal', { params: { path: { actionId: input.actionId } }, body: { text: input.text } }));
}

export function useAppealDecision() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: appealDecision, onSettled: () => queryClient.invalidateQueries({ queryKey: MODERATION_NOTICES_QUERY_KEY }) });
}
