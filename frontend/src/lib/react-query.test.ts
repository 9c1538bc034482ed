import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { ApiError } from './api-client';
import { createQueryClient, prefetchedByRoute, queryDefaults, retryDelay, shouldRetry } from './react-query';

describe('retry rule', () => {
  it('never retries an error whose text carries 401 or 403', () => {
    expect(shouldRetry(0, new ApiError(401, 'Unauthorized', '', new Headers()))).toBe(false);
    expect(shouldRetry(0, new ApiError(403, 'Forbidden', '{"message":"no"}', new Headers()))).toBe(false);
    expect(shouldRetry(0, new Error('403: Forbidden'))).toBe(false);
  });

  it('retries other failures while fewer than 3 retries were made', () => {
    const error = new Error('500: Internal Server Error');
    expect(shouldRetry(0, error)).toBe(true);
    expect(shouldRetry(1, error)).toBe(true);
    expect(shouldRetry(2, error)).toBe(true);
    expect(shouldRetry(3, error)).toBe(false);
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
  });

  it('never retries a client error whose answer will not change, such as a 404', () => {
    expect(shouldRetry(0, new ApiError(404, 'Not Found', '{"message":"Timeline not found"}', new Headers()))).toBe(false);
    expect(shouldRetry(0, new ApiError(400, 'Bad Request', '', new Headers()))).toBe(false);
    expect(shouldRetry(0, new ApiError(410, 'Gone', '', new Headers()))).toBe(false);
  });

  it('retries a timeout, a rate limit and server errors', () => {
    expect(shouldRetry(0, new ApiError(408, 'Request Timeout', '', new Headers()))).toBe(true);
    expect(shouldRetry(0, new ApiError(429, 'Too Many Requests', '', new Headers()))).toBe(true);
    expect(shouldRetry(0, new ApiError(503, 'Service Unavailable', '', new Headers()))).toBe(true);
  });

  it('doubles the delay from 1 s up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('query defaults', () => {
  it('keeps data fresh and cached for 5 minutes, without refetching on focus', () => {
    const client = createQueryClient();
    const defaults = client.getDefaultOptions().queries;
    expect(defaults).toMatchObject({ staleTime: 300_000, gcTime: 300_000, refetchOnWindowFocus: false });
    expect(defaults?.retry).toBe(shouldRetry);
    expect(queryDefaults.mutations.retry).toBe(false);
  });
});

describe('queries a route prefetches', () => {
  /** A route's prefetch gets a 404, then the page mounts: how many times was the API asked? */
  async function askedAfterMount(extra: object): Promise<number> {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined); // 'Query failed', as designed
    const client = createQueryClient();
    let asked = 0;
    const options = {
      queryKey: ['timelines', 'detail', 'missing'],
      queryFn: async () => {
        asked += 1;
        throw new ApiError(404, 'Not Found', '{"message":"Timeline not found"}', new Headers());
      },
      ...extra,
    };
    await client.prefetchQuery(options);
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
    const { result } = renderHook(() => useQuery(options), { wrapper });
    await waitFor(() => expect(result.current.isError).toBe(true));
    await waitFor(() => expect(result.current.isFetching).toBe(false));
    client.clear();
    logged.mockRestore();
    return asked;
  }

  it('shows the 404 the prefetch got without asking again as the page mounts', async () => {
    expect(await askedAfterMount(prefetchedByRoute)).toBe(1);
    // Without the rule, the mount asks again: the double request the not-found journey caught.
    expect(await askedAfterMount({})).toBe(2);
  });
});
