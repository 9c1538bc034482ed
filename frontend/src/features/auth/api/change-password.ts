import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type ChangePasswordInput = ApiSchemas['ChangePasswordDto'];
export type ChangePasswordResult = ApiSchemas['ChangePasswordResultDto'];

export function changePassword(body: ChangePasswordInput): Promise<ChangePasswordResult> {
  return unwrap(api.PUT('/api/auth/password', { body }));
}

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
