/** The path and query the gateway forwards, in the form the upstream will see them. */
export interface ForwardTarget {
  path: string;
  search: string;
}

// `.`/`..` segments, also when percent-encoded (`%2e%2e%2f`): somewhere down the line a parser
// folds them away and the request reaches a path other than the one routed (`/api/auth/../../metrics`).
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;

/**
 * Normalises a request target for forwarding; null when it is not one a browser sends (dot
 * segments, backslashes, malformed escapes), which the gateway refuses rather than guess at.
 * Routing, signing and forwarding all use the returned path, so they agree on it.
 */
export function forwardTarget(rawUrl: string): ForwardTarget | null {
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (!rawPath.startsWith('/') || rawPath.startsWith('//') || /[\\\0]/.test(decoded) || DOT_SEGMENT.test(decoded)) return null;
  const url = new URL(rawUrl, 'http://upstream.invalid');
  return { path: url.pathname, search: url.search };
}
