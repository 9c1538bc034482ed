import { useMutation } from '@tanstack/react-query';
import { api, type ApiSchemas } from '../../../lib/api-client';

export type ResetPasswordInput = ApiSchemas['ResetPasswordDto'];

export async function resetPassword(body: ResetPasswordInput): Promise<void> {
  await api.POST('/api/auth/password/reset', { body });
}

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
