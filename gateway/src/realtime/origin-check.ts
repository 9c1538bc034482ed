/**
 * Cross-site WebSocket hijacking guard: a browser attaches the page's Origin to every WebSocket
 * handshake, so a socket opened by another site's page is refused. Without PUBLIC_ORIGIN the
 * page must come from the host it connects to. A missing Origin is not a browser (no cookies or
 * ambient credentials to abuse; the socket still has to authenticate) and is let through.
 */
export function originAllowed(origin: string | undefined, host: string, publicOrigin: string | undefined): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (publicOrigin) return parsed.origin === new URL(publicOrigin).origin;
  return parsed.host === host.toLowerCase();
}
