import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClient } from '@tanstack/react-query';
import { keepOfflineCache, OFFLINE_CACHE_KEY, OFFLINE_CACHE_MAX_AGE_MS, OFFLINE_CACHE_WRITE_DELAY_MS, offerOfflineCache, restoreOfflineCache, sessionFingerprint } from './offline-cache';

const VERSION = '1.0.0+abc';

describe('offline copy of the query cache', () => {
  let token: string | null;
  let now: number;
  const env = () => ({ storage: localStorage, version: VERSION, getToken: () => token, now: () => now });

  beforeEach(() => {
    jest.useFakeTimers();
    localStorage.clear();
    token = 'session-a';
    now = Date.UTC(2026, 10, 27, 12);
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  /** A client that has shown the feed and a timeline, kept to storage. */
  function keptClient() {
    const client = new QueryClient();
    const stop = keepOfflineCache(client, env());
    client.setQueryData(['auth', 'me'], { id: 'u1', displayName: 'Ada' });
    client.setQueryData(['feed', 'list', 'for-you'], { pages: [{ items: [{ id: 't1' }], nextCursor: null }], pageParams: [undefined] });
    client.setQueryData(['media', 'thumbnail', '/x'], new Blob(['jpeg']));
    jest.advanceTimersByTime(OFFLINE_CACHE_WRITE_DELAY_MS);
    stop();
    return client;
  }

  it('keeps what was shown, and gives it back to the next page of the same session', () => {
    const kept = keptClient();
    const stored = JSON.parse(localStorage.getItem(OFFLINE_CACHE_KEY)!);
    expect(stored.session).toBe(sessionFingerprint('session-a'));
    expect(JSON.stringify(stored)).not.toContain('session-a');

    const next = new QueryClient();
    restoreOfflineCache(next, env());
    expect(next.getQueryData(['auth', 'me'])).toEqual({ id: 'u1', displayName: 'Ada' });
    expect(next.getQueryData(['feed', 'list', 'for-you'])).toEqual({ pages: [{ items: [{ id: 't1' }], nextCursor: null }], pageParams: [undefined] });
    // A Blob does not survive storage: it is asked for again.
    expect(next.getQueryData(['media', 'thumbnail', '/x'])).toBeUndefined();
    // It keeps the time it was fetched, and is asked for again as soon as something shows it.
    expect(next.getQueryState(['auth', 'me'])?.dataUpdatedAt).toBe(kept.getQueryState(['auth', 'me'])?.dataUpdatedAt);
    expect(next.getQueryState(['auth', 'me'])?.isInvalidated).toBe(true);
    expect(next.getQueryState(['feed', 'list', 'for-you'])?.isInvalidated).toBe(true);
  });

  it.each([
    ['another session', () => (token = 'session-b')],
    ['no session', () => (token = null)],
    ['another build', () => undefined, '2.0.0'],
    ['a copy older than a day', () => (now += OFFLINE_CACHE_MAX_AGE_MS)],
  ])('gives nothing to %s, and drops the copy', (_name, change, version = VERSION) => {
    keptClient();
    change();
    const next = new QueryClient();
    restoreOfflineCache(next, { ...env(), version });
    expect(next.getQueryData(['auth', 'me'])).toBeUndefined();
    expect(localStorage.getItem(OFFLINE_CACHE_KEY)).toBeNull();
  });

  it('drops the copy when the session ends (signing out removes the token and the cached data)', () => {
    const client = keptClient();
    const stop = keepOfflineCache(client, env());
    token = null;
    client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
    jest.advanceTimersByTime(OFFLINE_CACHE_WRITE_DELAY_MS);
    stop();
    expect(localStorage.getItem(OFFLINE_CACHE_KEY)).toBeNull();
  });

  describe('is offered only when the server cannot be reached', () => {
    const ME = ['auth', 'me'];
    const unreachable = (error: unknown) => error instanceof TypeError;
    const ask = (client: QueryClient, answer: () => Promise<unknown>) => client.fetchQuery({ queryKey: ME, queryFn: answer, retry: false }).catch(() => undefined);

    it('to a page that starts offline', () => {
      keptClient();
      const online = jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      const next = new QueryClient();
      offerOfflineCache(next, env(), ME, unreachable);
      online.mockRestore();
      expect(next.getQueryData(ME)).toEqual({ id: 'u1', displayName: 'Ada' });
    });

    it('not to a page whose session check the server answers', async () => {
      keptClient();
      const next = new QueryClient();
      offerOfflineCache(next, env(), ME, unreachable);
      await ask(next, async () => ({ id: 'u1', displayName: 'Ada Lovelace' }));
      await ask(next, () => Promise.reject(new TypeError('Failed to fetch')));
      expect(next.getQueryData(ME)).toEqual({ id: 'u1', displayName: 'Ada Lovelace' });
      expect(next.getQueryData(['feed', 'list', 'for-you'])).toBeUndefined();
    });

    it('to a page whose session check cannot reach the server', async () => {
      keptClient();
      const next = new QueryClient();
      offerOfflineCache(next, env(), ME, unreachable);
      await ask(next, () => Promise.reject(new TypeError('Failed to fetch')));
      expect(next.getQueryData(ME)).toEqual({ id: 'u1', displayName: 'Ada' });
      expect(next.getQueryData(['feed', 'list', 'for-you'])).toBeDefined();
    });
  });
});
