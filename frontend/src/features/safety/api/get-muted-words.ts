import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { mutedWordsQueryKey } from './safety-keys';

export type MutedWord = ApiSchemas['MutedWordDto'];

/** The caller's muted words and hashtags that still stand, newest first. */
export function getMutedWords(): Promise<MutedWord[]> {
  return unwrap(api.GET('/api/muted-words'));
}

export function getMutedWordsQueryOptions() {
  return queryOptions({ queryKey: mutedWordsQueryKey, queryFn: getMutedWords });
}

export function useMutedWords() {
  return useQuery(getMutedWordsQueryOptions());
}
