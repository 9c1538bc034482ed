import { api, type ApiSchemas } from '../../../lib/api-client';

export type SearchResultType = ApiSchemas['RecordSearchDto']['resultType'];

/** Remembers which result a search led to (best effort: opening the result never waits for it). */
export function recordSearchResult(query: string, resultType: NonNullable<SearchResultType>, resultId: string): void {
  if (!query.trim()) return;
  api.POST('/api/search/history', { body: { query: query.trim().slice(0, 200), resultType, resultId } }).catch(() => undefined);
}
