import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { onlineManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { isOffline, isUnreachable, watchConnection } from './connection';

describe('connection', () => {
  afterEach(() => {
    onlineManager.setOnline(true);
    jest.useRealTimers();
  });

  it('tells an unreachable server from an answer', () => {
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isUnreachable(new ApiError(503, 'Service Unavailable', '', new Headers()))).toBe(true);
    expect(isUnreachable(new ApiError(404, 'Not Found', '', new Headers()))).toBe(false);
    expect(isUnreachable(new ApiError(500, 'Internal Server Error', '', new Headers()))).toBe(false);
  });

  describe('getting back by itself', () => {
    let client: QueryClient;
    let stop: () => void;
    let answers: Array<() => Promise<string>>;
    let asked: number;

    beforeEach(() => {
      answers = [];
      asked = 0;
      const errors: { onQueryError?: (error: unknown) => void } = {};
      client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5 * 60_000 } } });
      client.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'error') errors.onQueryError?.(event.action.error);
      });
      const watcher = watchConnection(client);
      errors.onQueryError = watcher.onQueryError;
      stop = watcher.stop;
    });
    afterEach(() => stop());

    /** A query on screen whose next answers come from `answers`. */
    function shown() {
      const observer = new QueryObserver(client, {
        queryKey: ['shown'],
        queryFn: () => {
          asked += 1;
          return (answers.shift() ?? (() => Promise.resolve('fresh')))();
        },
      });
      const unsubscribe = observer.subscribe(() => undefined);
      return { observer, unsubscribe };
    }

    it('asks again for what is on screen when the device comes back online, though it was fresh', async () => {
      const { observer, unsubscribe } = shown();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(observer.getCurrentResult().data).toBe('fresh');
      onlineManager.setOnline(false);
      expect(isOffline()).toBe(true);
      answers.push(() => Promise.resolve('after the outage'));
      onlineManager.setOnline(true);
      expect(isOffline()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(observer.getCurrentResult().data).toBe('after the outage');
      expect(asked).toBe(2);
      unsubscribe();
    });

    it('while online but unreachable, tries again every few seconds until the server answers', async () => {
      jest.useFakeTimers();
      answers.push(() => Promise.reject(new TypeError('Failed to fetch')));
      answers.push(() => Promise.reject(new TypeError('Failed to fetch')));
      const { observer, unsubscribe } = shown();
      await jest.advanceTimersByTimeAsync(0);
      expect(observer.getCurrentResult().status).toBe('error');
      expect(isOffline()).toBe(true);
      await jest.advanceTimersByTimeAsync(3_000);
      expect(asked).toBe(2);
      expect(isOffline()).toBe(true);
      // The next gap is longer (6 s); then the server answers.
      await jest.advanceTimersByTimeAsync(5_000);
      expect(asked).toBe(2);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(asked).toBeGreaterThanOrEqual(3);
      expect(observer.getCurrentResult().data).toBe('fresh');
      expect(isOffline()).toBe(false);
      unsubscribe();
    });
  });
});
