import { useDeferredValue } from 'react';

/**
 * False in the component's first render, true in the render React makes just after it (deferred,
 * so the browser can paint in between and interrupt it): for the parts of a screen that can come
 * after its first paint.
 */
export function useAfterFirstRender(): boolean {
  return useDeferredValue(true, false);
}
