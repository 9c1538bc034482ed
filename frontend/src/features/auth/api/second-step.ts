import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { setAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY } from '../../../lib/current-user';
import { isDeletionPending } from './login';

export type SecondStepInput = ApiSchemas['SecondStepDto'];

export function finishSignIn(body: SecondStepInput) {
  return unwrap(api.POST('/api/auth/login/second-step', { body }));
}

/** Finishes a password sign-in with a code from the app or a recovery code; the session starts. */
export function useSecondStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: finishSignIn,
    onSuccess: (answer) => {
      if (isDeletionPending(answer)) return;
      setAuthToken(answer.session.token);
      queryClient.setQueryData(ME_QUERY_KEY, answer.user);
    },
  });
}
