import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type DeletionProof = ApiSchemas['ProofDto'];

export const requestDeletion = (proof: DeletionProof) => unwrap(api.POST('/api/auth/account/deletion', { body: proof }));

/** Asks for the account to be deleted, with the password or a passkey; every session ends, this one too. */
export function useRequestDeletion() {
  return useMutation({ mutationFn: requestDeletion });
}
