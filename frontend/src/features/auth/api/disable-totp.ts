import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { TWO_STEP_QUERY_KEY } from './get-two-step';

export type Proof = ApiSchemas['ProofDto'];

export const disableTotp = (proof: Proof) => unwrap(api.POST('/api/auth/two-step/totp/disable', { body: proof }));

/** Turns two-step sign-in off, with the password or a passkey. */
export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: disableTotp, onSuccess: () => queryClient.invalidateQueries({ queryKey: TWO_STEP_QUERY_KEY }) });
}
