import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { setAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';

export type LoginInput = ApiSchemas['LoginDto'];
export type AuthResponse = ApiSchemas['AuthResponseDto'];
/** The password was right and the account asks for a code: no session yet. */
export type SecondStepRequired = ApiSchemas['SecondStepRequiredDto'];

/** The sign-in was right, but the account is waiting to be deleted: signing in means cancelling that first. */
export type DeletionPending = ApiSchemas['DeletionPendingDto'];

export const needsSecondStep = (answer: object): answer is SecondStepRequired => 'secondStep' in answer;
export const isDeletionPending = (answer: object): answer is DeletionPending => 'deletionPending' in answer;

export function login(body: LoginInput): Promise<AuthResponse | SecondStepRequired | DeletionPending> {
  return unwrap(api.POST('/api/auth/login', { body }));
}

/** Signs in; the session token is stored and the user becomes the current user (unless a second step is asked for). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (answer) => {
      if (needsSecondStep(answer) || isDeletionPending(answer)) return;
      setAuthToken(answer.session.token);
      queryClient.setQueryData(ME_QUERY_KEY, answer.user);
    },
  });
}
