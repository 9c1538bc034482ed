import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { mutedWordsQueryKey } from './safety-keys';

export async function removeMutedWord(wordId: string): Promise<void> {
  // A refusal rejects in the typed client (an ApiError with the server's message).
  await api.DELETE('/api/muted-words/{wordId}', { params: { path: { wordId } } });
}

/** Removes a muted word; `onSuccess` lets the page refresh its feeds and comments. */
export function useRemoveMutedWord({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMutedWord,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mutedWordsQueryKey });
      onSuccess?.();
    },
  });
}
