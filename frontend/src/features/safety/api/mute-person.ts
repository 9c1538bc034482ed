import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { MuteStatus } from './get-mute-status';
import { muteStatusQueryKey, SAFETY_KEY } from './safety-keys';

export function setMuted(id: string, muted: boolean): Promise<MuteStatus> {
  const params = { params: { path: { id } } };
  return unwrap(muted ? api.POST('/api/users/{id}/mute', params) : api.DELETE('/api/users/{id}/mute', params));
}

/** Mutes or unmutes a person (they are not told); `onSuccess` lets the page refresh its feeds. */
export function useMutePerson({ onSuccess }: { onSuccess?: (status: MuteStatus) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, muted }: { id: string; muted: boolean }) => setMuted(id, muted),
    onSuccess: (status, { id }) => {
      queryClient.setQueryData(muteStatusQueryKey(id), status);
      void queryClient.invalidateQueries({ queryKey: SAFETY_KEY });
      onSuccess?.(status);
    },
  });
}
