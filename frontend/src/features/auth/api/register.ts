import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { setAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import type { AuthResponse } from './login';

export type RegisterInput = ApiSchemas['RegisterDto'];

export function register(body: RegisterInput): Promise<AuthResponse> {
  return unwrap(api.POST('/api/auth/register', { body }));
}

/** Creates an account and signs in with the session it answers with. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ user, session }) => {
      setAuthToken(session.token);
      queryClient.setQueryData(ME_QUERY_KEY, user);
    },
  });
}
