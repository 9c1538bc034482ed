import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import type { MutedWord } from './get-muted-words';
import { mutedWordsQueryKey } from './safety-keys';

export type MuteWordInput = ApiSchemas['MuteWordDto'];

export function addMutedWord(body: MuteWordInput): Promise<MutedWord> {
  return unwrap(api.POST('/api/muted-words', { body }));
}

/** Mutes a word or hashtag; `onSuccess` lets the page refresh its feeds and comments. */
export function useAddMutedWord({ onSuccess }: { onSuccess?: (word: MutedWord) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addMutedWord,
    onSuccess: (word) => {
      void queryClient.invalidateQueries({ queryKey: mutedWordsQueryKey });
      onSuccess?.(word);
    },
  });
}
