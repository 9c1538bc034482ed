import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type ChangeEmailInput = ApiSchemas['ChangeEmailDto'];

/** Sends a confirmation link to the new address; the address changes once it is followed. */
export function changeEmail(body: ChangeEmailInput) {
  return unwrap(api.PUT('/api/auth/email', { body }));
}

export const useChangeEmail = () => useMutation({ mutationFn: changeEmail });
