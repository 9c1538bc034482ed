import { describe, expect, it } from '@jest/globals';
import { ApiError } from './api-client';
import { createQueryClient, queryDefaults, retryDelay, shouldRetry } from './react-query';

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
