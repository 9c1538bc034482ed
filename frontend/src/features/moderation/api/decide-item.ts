import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type ItemDecision = ApiSchemas['ItemDecisionDto'];

/** Dismiss, hide, restore, mark sensitive or warn (POST /api/moderation/items/{type}/{id}/decision). */
export function decideItem(input: { contentType: string; contentId: string } & ItemDecision) {
  return unwrap(api.POST('/api/moderation/items/{type}/{id}/decision', { params: { path: { type: input.contentType, id: input.contentId } }, body: { action: input.action, reason: input.reason } }));
}

export function useDecideItem() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: decideItem, onSettled: () => queryClient.invalidateQueries({ queryKey: ['moderation'] }) });
}
