import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { SAFETY_KEY } from './safety-keys';

export type BlockStatus = ApiSchemas['BlockStatusDto'];

export function setBlocked(id: string, blocked: boolean): Promise<BlockStatus> {
  const params = { params: { path: { id } } };
  return unwrap(blocked ? api.POST('/api/users/{id}/block', params) : api.DELETE('/api/users/{id}/block', params));
}

/**
 * Blocks or unblocks a person. Afterwards everything cached may show them (feeds, comments,
 * lists, their profile): the page gives `onSuccess` to ask those again.
 */
export function useBlockPerson({ onSuccess }: { onSuccess?: (status: BlockStatus) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, blocked }: { id: string; blocked: boolean }) => setBlocked(id, blocked),
    onSuccess: (status) => {
      void queryClient.invalidateQueries({ queryKey: SAFETY_KEY });
      onSuccess?.(status);
    },
  });
}
