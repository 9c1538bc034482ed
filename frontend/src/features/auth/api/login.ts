import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { setAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from './get-me';

export type LoginInput = ApiSchemas['LoginDto'];
export type AuthResponse = ApiSchemas['AuthResponseDto'];

export function login(body: LoginInput): Promise<AuthResponse> {
  return unwrap(api.POST('/api/auth/login', { body }));
}

/** Signs in; the session token is stored and the user becomes the current user. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user, session }) => {
      setAuthToken(session.token);
      queryClient.setQueryData(ME_QUERY_KEY, user);
    },
  });
}
