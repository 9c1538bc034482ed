/** Player gesture constants (spec 001, section 9). */
export const SWIPE_THRESHOLD_PX = 50;
export const TAP_DEBOUNCE_MS = 300;
export const SWITCH_GUARD_MS = 50;
export const CONTROLS_HIDE_MS = 8000;

export type Gesture = 'tap' | 'next-video' | 'previous-video' | 'next-timeline' | 'previous-timeline';

/**
 * What a finger (or pointer) movement of dx, dy pixels means: under 50 px either way is a tap;
 * otherwise the longer direction wins. Left is the next video, right the previous; up is the
 * next timeline, down the previous.
 */
export function classifyGesture(dx: number, dy: number): Gesture {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  if (ax < SWIPE_THRESHOLD_PX && ay < SWIPE_THRESHOLD_PX) return 'tap';
  if (ax >= ay) return dx < 0 ? 'next-video' : 'previous-video';
  return dy < 0 ? 'next-timeline' : 'previous-timeline';
}

/** Lets a call through at most once per `ms`; the calls in between are dropped. */
export function createGate(ms: number, now: () => number = () => Date.now()) {
  let last = Number.NEGATIVE_INFINITY;
  return (): boolean => {
    const at = now();
    if (at - last < ms) return false;
    last = at;
    return true;
  };
}
