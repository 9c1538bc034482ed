import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { getAuthToken } from '../../../lib/auth-token';
import { ME_QUERY_KEY, type User } from '../../../lib/current-user';

export type UpdateProfileInput = ApiSchemas['UpdateProfileDto'];

export async function updateProfile(body: UpdateProfileInput): Promise<User> {
  if (!getAuthToken()) throw new Error('No auth token');
  return unwrap(api.PUT('/api/auth/profile', { body }));
}

type Config = Omit<UseMutationOptions<User, Error, UpdateProfileInput>, 'mutationFn'>;

/** The answer replaces the current user (spec 000, section 4). */
export function useUpdateProfile(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateProfile,
    onSuccess: (user, ...rest) => {
      queryClient.setQueryData(ME_QUERY_KEY, user);
      return config.onSuccess?.(user, ...rest);
    },
  });
}
