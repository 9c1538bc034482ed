import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { TWO_STEP_QUERY_KEY } from './get-two-step';

export const confirmTotp = (code: string) => unwrap(api.POST('/api/auth/two-step/totp/confirm', { body: { code } }));

/** Turns two-step sign-in on with a first code; answers the recovery codes. */
export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: confirmTotp, onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_STEP_QUERY_KEY }) });
}
