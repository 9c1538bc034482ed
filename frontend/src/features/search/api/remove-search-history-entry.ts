import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { SEARCH_HISTORY_QUERY_KEY, type SearchHistoryEntry } from './get-search-history';

export async function removeSearchHistoryEntry(id: string): Promise<void> {
  await api.DELETE('/api/search/history/{id}', { params: { path: { id } } });
}

export function useRemoveSearchHistoryEntry() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeSearchHistoryEntry,
    onSuccess: (_answer, id) =>
      client.setQueryData<SearchHistoryEntry[]>(SEARCH_HISTORY_QUERY_KEY, (entries) => entries?.filter((entry) => entry.id !== id)),
  });
}
