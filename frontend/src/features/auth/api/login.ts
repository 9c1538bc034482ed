import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { setAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';

export type LoginInput = ApiSchemas['LoginDto'];
export type AuthResponse = ApiSchemas['AuthResponseDto'];
/** The password was right and the account asks for a code: no session yet. */
export type SecondStepRequired = ApiSchemas['SecondStepRequiredDto'];

export const needsSecondStep = (answer: AuthResponse | SecondStepRequired): answer is SecondStepRequired => 'secondStep' in answer;

export function login(body: LoginInput): Promise<AuthResponse | SecondStepRequired> {
  return unwrap(api.POST('/api/auth/login', { body }));
}

/** Signs in; the session token is stored and the user becomes the current user (unless a second step is asked for). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (answer) => {
      if (needsSecondStep(answer)) return;
      setAuthToken(answer.session.token);
      queryClient.setQueryData(ME_QUERY_KEY, answer.user);
    },
  });
}
