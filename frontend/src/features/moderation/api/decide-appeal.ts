import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

/** Upholds or grants an appeal (POST /api/moderation/appeals/{id}/decision). */
export function decideAppeal(input: { appealId: string } & ApiSchemas['AppealDecisionDto']) {
  return unwrap(api.POST('/api/moderation/appeals/{id}/decision', { params: { path: { id: input.appealId } }, body: { outcome: input.outcome, reason: input.reason } }));
}

export function useDecideAppeal() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: decideAppeal, onSettled: () => queryClient.invalidateQueries({ queryKey: ['moderation'] }) });
}
