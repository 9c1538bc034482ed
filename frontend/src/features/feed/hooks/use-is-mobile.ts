import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT } from '../../../lib/viewport';

const QUERY = `(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`;

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

const isMobile = () => typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches;

/** Narrower than 768 px (spec 000, section 9), kept current as the window is resized. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobile, () => false);
}
