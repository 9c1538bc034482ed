import { useSyncExternalStore } from 'react';

/**
 * Whether the page has finished its first load and the browser has had a moment of idle time
 * since: work that can wait (preloading a video nobody is watching yet) waits for it, so it never
 * competes with the first screen's code, data and rendering.
 */
let settled = false;
const listeners = new Set<() => void>();

function settle() {
  settled = true;
  for (const listener of [...listeners]) listener();
  listeners.clear();
}

function afterIdle() {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(settle, { timeout: 3000 });
  else window.setTimeout(settle, 300);
}

if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  if (document.readyState === 'complete') afterIdle();
  else window.addEventListener('load', afterIdle, { once: true });
}

export function isPageSettled(): boolean {
  return settled;
}

function subscribe(listener: () => void): () => void {
  if (settled) return () => undefined;
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePageSettled(): boolean {
  return useSyncExternalStore(subscribe, isPageSettled, () => false);
}
