import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { collaboratorsQueryKey } from './get-collaborators';

export type TransferOwnershipResult = ApiSchemas['TransferOwnershipResultDto'];

export function transferOwnership(timelineId: string, newOwnerId: string): Promise<TransferOwnershipResult> {
  return unwrap(api.POST('/api/timelines/{id}/transfer-ownership', { params: { path: { id: timelineId } }, body: { newOwnerId } }));
}

type Variables = { timelineId: string; newOwnerId: string };
type Config = Omit<UseMutationOptions<TransferOwnershipResult, Error, Variables>, 'mutationFn'>;

/**
 * Roles change on both sides, so the collaborator list is asked again. The timeline itself (the
 * caller's role on it) belongs to the timelines feature: the page updates it from `onSuccess`.
 */
export function useTransferOwnership(config: Config = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: ({ timelineId, newOwnerId }: Variables) => transferOwnership(timelineId, newOwnerId),
    onSuccess: (result, variables, ...rest) => {
      void queryClient.invalidateQueries({ queryKey: collaboratorsQueryKey(variables.timelineId) });
      return config.onSuccess?.(result, variables, ...rest);
    },
  });
}
