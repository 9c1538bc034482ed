import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { SEARCH_HISTORY_QUERY_KEY } from './get-search-history';

export async function clearSearchHistory(): Promise<void> {
  await api.DELETE('/api/search/history');
}

export function useClearSearchHistory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: clearSearchHistory,
    onSuccess: () => client.setQueryData(SEARCH_HISTORY_QUERY_KEY, []),
  });
}
