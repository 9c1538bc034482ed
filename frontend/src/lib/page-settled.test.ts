import { describe, expect, it } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';

// The browser's idle callback, held by the test: the page settles when it runs.
let idle: (() => void) | undefined;
window.requestIdleCallback = ((callback: () => void) => {
  idle = callback;
  return 1;
}) as typeof window.requestIdleCallback;
const { isPageSettled, usePageSettled } = await import('./page-settled');

describe('page settled', () => {
  it('waits for the load and for idle time, then tells every subscriber', () => {
    if (document.readyState !== 'complete') window.dispatchEvent(new Event('load'));
    const { result } = renderHook(() => usePageSettled());
    expect(result.current).toBe(false);
    expect(isPageSettled()).toBe(false);

    expect(idle).toBeDefined();
    act(() => idle?.());
    expect(result.current).toBe(true);
    expect(isPageSettled()).toBe(true);

    // Whoever asks later is told at once.
    const { result: later } = renderHook(() => usePageSettled());
    expect(later.current).toBe(true);
  });
});
