import { MutationCache, QueryCache, QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { ApiError } from './api-client';

const FIVE_MINUTES = 5 * 60 * 1000;
const MAX_RETRIES = 3;
const MAX_RETRY_DELAY = 30_000;

/** Client errors whose answer may differ on a second try: a timeout and a rate limit. */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 429]);

/**
 * Spec 000 section 8: no retry when the error text carries 401 or 403; otherwise retry while
 * fewer than 3 attempts were made. TanStack passes the failures counted before this one.
 * Beyond the spec, no other client error is retried either: a 404 stays a 404, and retrying it
 * kept a missing timeline or profile on "Loading..." for about 8 s before its not-found message.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  if (text.includes('401') || text.includes('403')) return false;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && !RETRYABLE_CLIENT_ERRORS.has(error.status)) return false;
  return failureCount < MAX_RETRIES;
}

/** Delay doubling from 1 s, capped at 30 s. */
export function retryDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, MAX_RETRY_DELAY);
}

/**
 * For the queries a route's loader prefetches (app/router.tsx) whose failure nothing on the page
 * can change, above all a 404 for something that does not exist: the failure the prefetch got is
 * shown, not asked again when the page mounts (the page's code can arrive after the answer, and
 * TanStack would re-ask on mount). Opening the page again runs the loader, which asks again. Not
 * for a query the page's own actions can open up (a private person's lists once followed): an
 * errored query with this rule is never fetched by a later mount.
 */
export const prefetchedByRoute = { retryOnMount: false } as const;

export const queryDefaults = {
  queries: {
    staleTime: FIVE_MINUTES,
    gcTime: FIVE_MINUTES,
    refetchOnWindowFocus: false,
    retry: shouldRetry,
    retryDelay,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export interface QueryClientHooks {
  /** Called for every failed query after it has been logged. */
  onQueryError?: (error: unknown, queryKey: readonly unknown[]) => void;
}

/** Failed queries and mutations are only logged (spec 000, section 8). */
export function createQueryClient(hooks: QueryClientHooks = {}): QueryClient {
  return new QueryClient({
    defaultOptions: queryDefaults,
    queryCache: new QueryCache({
      onError: (error, query) => {
        console.error('Query failed', query.queryKey, error);
        hooks.onQueryError?.(error, query.queryKey);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => console.error('Mutation failed', error),
    }),
  });
}
