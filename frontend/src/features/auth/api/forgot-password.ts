import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type ForgotPasswordInput = ApiSchemas['ForgotPasswordDto'];

/** Asks for a reset link; the answer is the same for every address. */
export function forgotPassword(body: ForgotPasswordInput): Promise<ApiSchemas['ForgotPasswordResultDto']> {
  return unwrap(api.POST('/api/auth/password/forgot', { body }));
}

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
