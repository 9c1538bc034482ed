import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { ApiError } from './api-client';

/**
 * Whether Timeliner can be reached, and getting back by itself once it can. Two ways to lose it:
 * the device is offline (the browser says so, and says when it is back), or the device is online
 * but the server does not answer (a tunnel, a captive portal, a restart), which nothing announces:
 * then the failed requests are tried again every few seconds until one gets through. Either way,
 * once back, what is on screen is asked for again, so nothing shown from the offline copy or left
 * failed stays.
 */

/** Gaps between tries while the server does not answer: 3 s, doubling up to 30 s. */
const FIRST_PROBE_MS = 3_000;
const MAX_PROBE_MS = 30_000;

/** A request that never got an answer, or a gateway's answer that the service behind it is away. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 502 || error.status === 503 || error.status === 504;
  return error instanceof TypeError;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let unreachable = false;

function setUnreachable(value: boolean): void {
  if (unreachable === value) return;
  unreachable = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  const stop = onlineManager.subscribe(listener);
  return () => {
    listeners.delete(listener);
    stop();
  };
}

/** True while the device is offline or the server cannot be reached. */
export function isOffline(): boolean {
  return !onlineManager.isOnline() || unreachable;
}

export function useOffline(): boolean {
  return useSyncExternalStore(subscribe, isOffline, () => false);
}

/**
 * Watches the connection for `queryClient`: call once at start, with the query cache's error
 * hook reporting failures to the returned `onQueryError`.
 */
export function watchConnection(queryClient: QueryClient): { onQueryError: (error: unknown) => void; stop: () => void } {
  let probe: ReturnType<typeof setTimeout> | undefined;
  let gap = FIRST_PROBE_MS;
  // The query library takes the device as online until an 'offline' event; a page opened without
  // a connection gets none, so it starts from what the browser says (its "offline" is reliable).
  if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
  let wasOffline = !onlineManager.isOnline();

  const refreshShown = () => {
    // Everything on screen again: what came from the offline copy, what failed, what paused.
    void queryClient.invalidateQueries({ refetchType: 'active' });
  };

  const backAgain = () => {
    clearTimeout(probe);
    probe = undefined;
    gap = FIRST_PROBE_MS;
    if (unreachable) {
      setUnreachable(false);
      refreshShown();
    }
  };

  const tryAgain = () => {
    probe = undefined;
    if (!onlineManager.isOnline()) return; // The 'online' event will bring it back.
    void queryClient
      .refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' && isUnreachable(query.state.error) })
      .then(() => {
        const stillFailing = queryClient.getQueryCache().findAll({ type: 'active', predicate: (query) => query.state.status === 'error' && isUnreachable(query.state.error) });
        if (stillFailing.length === 0) backAgain();
        else schedule();
      });
  };

  const schedule = () => {
    if (probe !== undefined) return;
    probe = setTimeout(tryAgain, gap);
    gap = Math.min(gap * 2, MAX_PROBE_MS);
  };

  const stopOnline = onlineManager.subscribe((online) => {
    if (!online) {
      wasOffline = true;
      return;
    }
    if (wasOffline) {
      wasOffline = false;
      setUnreachable(false);
      clearTimeout(probe);
      probe = undefined;
      gap = FIRST_PROBE_MS;
      refreshShown();
    }
  });

  // A success while unreachable (anything that got through) means the server is back.
  const stopCache = queryClient.getQueryCache().subscribe((event) => {
    if (unreachable && event.type === 'updated' && event.action.type === 'success' && !event.action.manual) backAgain();
  });

  return {
    onQueryError: (error) => {
      if (!isUnreachable(error) || !onlineManager.isOnline()) return;
      setUnreachable(true);
      schedule();
    },
    stop: () => {
      stopOnline();
      stopCache();
      clearTimeout(probe);
    },
  };
}
