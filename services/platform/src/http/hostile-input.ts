/** Deeper JSON than any of our bodies needs; the limit keeps validation off a 20,000-level tree. */
export const MAX_JSON_DEPTH = 32;

export const NUL_MESSAGE = 'Text must not contain NUL characters';
export const DEPTH_MESSAGE = `JSON must not be nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * What makes a parsed body or query unfit for any handler, whatever its DTO says: a NUL character
 * (Postgres cannot store it in text, so it used to surface as a 500) or nesting deeper than
 * MAX_JSON_DEPTH. Returns the message to answer 400 with, or null. The walk stops at the depth
 * limit, so its own recursion is bounded.
 */
export function hostileInput(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? NUL_MESSAGE : null;
  // Only what a JSON or form parser makes is walked: a streamed body (a tus chunk, a multipart
  // upload) is an object too, and its bytes are the owner's to check.
  if (!isParsedData(value)) return null;
  if (depth >= MAX_JSON_DEPTH) return DEPTH_MESSAGE;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return NUL_MESSAGE;
    const problem = hostileInput(child, depth + 1);
    if (problem) return problem;
  }
  return null;
}

function isParsedData(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
