/**
 * Where to take a person once they have signed in, for flows that send a signed-out visitor to
 * the sign-in screen (accepting an invitation). Kept per tab, so it survives a reload of the
 * sign-in screen but not into an unrelated tab.
 */
const RETURN_PATH_KEY = 'auth-return-path';

/** Only paths on this site: '/invite/abc', never '//other.host' or 'https://...'. */
function isSitePath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

export function rememberReturnPath(path: string): void {
  if (!isSitePath(path)) return;
  try {
    sessionStorage.setItem(RETURN_PATH_KEY, path);
  } catch {
    // Without storage the person simply stays where signing in leaves them.
  }
}

/** The remembered path, removed as it is read so it is followed once. */
export function takeReturnPath(): string | null {
  try {
    const path = sessionStorage.getItem(RETURN_PATH_KEY);
    sessionStorage.removeItem(RETURN_PATH_KEY);
    return path && isSitePath(path) ? path : null;
  } catch {
    return null;
  }
}
