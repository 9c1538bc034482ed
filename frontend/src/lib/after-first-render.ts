import { useDeferredValue, useEffect, useState } from 'react';

/**
 * False in the component's first render, true in the render React makes just after it (deferred,
 * so the browser can paint in between and interrupt it): for the parts of a screen that can come
 * after its first paint.
 */
export function useAfterFirstRender(): boolean {
  return useDeferredValue(true, false);
}

/**
 * False until the browser has painted the frame holding the component's first render, true after
 * it: a task queued from the next animation frame runs once that frame is on screen. For code a
 * screen asks for only after its first paint, whatever the machine's load (a deferred render can
 * run, and start its downloads, before the paint). A hidden page paints nothing, so there it is
 * the next task.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame: number | undefined;
    const done = () => setPainted(true);
    if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') timer = setTimeout(done, 0);
    else frame = requestAnimationFrame(() => (timer = setTimeout(done, 0)));
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
}
