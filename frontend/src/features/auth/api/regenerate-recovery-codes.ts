import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { Proof } from './disable-totp';
import { TWO_STEP_QUERY_KEY } from './get-two-step';

export const regenerateRecoveryCodes = (proof: Proof) => unwrap(api.POST('/api/auth/two-step/recovery-codes', { body: proof }));

/** Ten new recovery codes; the earlier ones stop working. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: regenerateRecoveryCodes, onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_STEP_QUERY_KEY }) });
}
