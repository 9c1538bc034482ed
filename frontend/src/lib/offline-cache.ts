import { dehydrate, hashKey, hydrate, type DehydratedState, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * What the app last showed, kept in local storage so that a page opened without a connection
 * (the service worker serves the app itself) shows it again, marked as offline, instead of
 * "Can't reach Timeliner". It is the query cache as it stands: what nothing has shown for five
 * minutes is already gone from it (spec 000, section 9), so it is never a second, longer-lived
 * cache. It belongs to one session: another token (someone else signing in on the device), a
 * new build or a day's age makes it worthless, and it is dropped.
 */
export const OFFLINE_CACHE_KEY = 'offline-cache';

/** Older than this, a kept copy is not shown. */
export const OFFLINE_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Changes are written at most this often (a feed's first page is written once, not per card). */
export const OFFLINE_CACHE_WRITE_DELAY_MS = 1000;

interface KeptCache {
  version: string;
  /** A fingerprint of the session token the data was fetched with (never the token itself). */
  session: string;
  savedAt: number;
  state: DehydratedState;
}

export interface OfflineCacheEnv {
  storage: Storage;
  /** The running build: a copy kept by another build is not read. */
  version: string;
  getToken: () => string | null;
  now?: () => number;
}

/** FNV-1a: enough to tell two sessions apart without keeping a second copy of the token. */
export function sessionFingerprint(token: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < token.length; index += 1) {
    hash ^= token.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${token.length}.${hash.toString(16)}`;
}

/** Only answers that survive JSON: a thumbnail is a Blob, and is fetched again anyway. */
function isKept(query: Query): boolean {
  return query.state.status === 'success' && query.state.data !== undefined && !(query.state.data instanceof Blob);
}

function read(storage: Storage): KeptCache | null {
  try {
    const text = storage.getItem(OFFLINE_CACHE_KEY);
    return text ? (JSON.parse(text) as KeptCache) : null;
  } catch {
    return null;
  }
}

function remove(storage: Storage): void {
  try {
    storage.removeItem(OFFLINE_CACHE_KEY);
  } catch {
    // Storage unavailable: nothing kept.
  }
}

/** JSON turns a list's first page parameter (undefined) into null; the fetchers expect undefined. */
function withPageParams(state: DehydratedState): DehydratedState {
  return {
    ...state,
    queries: state.queries.map((query) => {
      const data = query.state.data as { pageParams?: unknown[] } | undefined;
      if (!data || !Array.isArray(data.pageParams)) return query;
      return { ...query, state: { ...query.state, data: { ...data, pageParams: data.pageParams.map((param) => param ?? undefined) } } };
    }),
  };
}

/**
 * Puts the kept copy into `queryClient`, before anything asks for data. Every entry is marked as
 * needing a refresh: it is what the screen shows until the answer comes (at once, or once back
 * online), so opening or reloading the page still shows the server's current state.
 */
export function restoreOfflineCache(queryClient: QueryClient, env: OfflineCacheEnv): void {
  const token = env.getToken();
  const kept = read(env.storage);
  if (!kept) return;
  const now = (env.now ?? Date.now)();
  const usable =
    token !== null &&
    kept.version === env.version &&
    kept.session === sessionFingerprint(token) &&
    now - kept.savedAt < OFFLINE_CACHE_MAX_AGE_MS &&
    Array.isArray(kept.state?.queries);
  if (!usable) {
    remove(env.storage);
    return;
  }
  try {
    hydrate(queryClient, withPageParams(kept.state));
    for (const { queryKey } of kept.state.queries) void queryClient.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
  } catch (error) {
    console.error('Could not restore the offline copy', error);
    remove(env.storage);
  }
}

/**
 * Keeps the copy up to date as the cache changes, and once more when the page is hidden (a phone
 * may never come back to it). Without a session nothing is kept and an old copy is removed.
 * Returns the function that stops keeping it.
 */
export function keepOfflineCache(queryClient: QueryClient, env: OfflineCacheEnv): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    const token = env.getToken();
    if (!token) {
      remove(env.storage);
      return;
    }
    const kept: KeptCache = {
      version: env.version,
      session: sessionFingerprint(token),
      savedAt: (env.now ?? Date.now)(),
      state: dehydrate(queryClient, { shouldDehydrateQuery: isKept, shouldDehydrateMutation: () => false }),
    };
    try {
      env.storage.setItem(OFFLINE_CACHE_KEY, JSON.stringify(kept));
    } catch (error) {
      // Full or unavailable: an old copy must not stand in for the new one.
      console.warn('Could not keep an offline copy', error);
      remove(env.storage);
    }
  };
  const schedule = () => {
    if (timer === undefined) timer = setTimeout(write, OFFLINE_CACHE_WRITE_DELAY_MS);
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'added' || event.type === 'removed' || (event.type === 'updated' && event.action.type === 'success')) schedule();
  });
  const onHide = () => {
    if (timer !== undefined) write();
  };
  window.addEventListener('pagehide', onHide);
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', onHide);
    clearTimeout(timer);
  };
}

/**
 * Online the copy stays unused (the page asks the server, as ever): it is given back only to a
 * page that starts offline, or whose session check (`sessionKey`) cannot reach the server.
 */
export function offerOfflineCache(queryClient: QueryClient, env: OfflineCacheEnv, sessionKey: QueryKey, isUnreachable: (error: unknown) => boolean): void {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    restoreOfflineCache(queryClient, env);
    return;
  }
  const session = hashKey(sessionKey);
  const stop = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== session) return;
    if (event.action.type === 'success') stop();
    else if (event.action.type === 'error' && event.query.state.data === undefined && isUnreachable(event.action.error)) {
      stop();
      restoreOfflineCache(queryClient, env);
    }
  });
}
