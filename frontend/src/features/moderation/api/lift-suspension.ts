import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** Lifts an account's suspension (POST /api/moderation/users/{id}/lift). */
export function liftSuspension(input: { userId: string; reason: string }) {
  return unwrap(api.POST('/api/moderation/users/{id}/lift', { params: { path: { id: input.userId } }, body: { reason: input.reason } }));
}

export function useLiftSuspension() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: liftSuspension, onSettled: () => queryClient.invalidateQueries({ queryKey: ['moderation'] }) });
}
