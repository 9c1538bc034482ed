import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** Suspends an account for some days, or for good without them (POST /api/moderation/users/{id}/suspension). */
export function suspendAccount(input: { userId: string; reason: string; days?: number }) {
  return unwrap(api.POST('/api/moderation/users/{id}/suspension', { params: { path: { id: input.userId } }, body: { reason: input.reason, ...(input.days ? { days: input.days } : {}) } }));
}

export function useSuspendAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: suspendAccount, onSettled: () => queryClient.invalidateQueries({ queryKey: ['moderation'] }) });
}
