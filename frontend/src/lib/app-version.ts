import { AUTH_TOKEN_KEY } from './auth-token';

export const APP_VERSION_KEY = 'app-version';

export interface VersionMarkerEnv {
  storage: Storage;
  /** Cache Storage, when the browser has it. */
  caches?: CacheStorage;
  reload: () => void;
}

/**
 * The app-version marker (spec 001, section 4). When the stored version differs from the
 * running build, everything in local storage but the auth token is dropped, Cache Storage is
 * emptied, the new version is stored and the page reloads once, so no data shaped for an older
 * build survives it. A first visit (no stored version) has nothing stale: the version is stored
 * and the page is not reloaded.
 *
 * Resolves to true when a reload was requested; the caller should then render nothing.
 */
export async function applyVersionMarker(currentVersion: string, env: VersionMarkerEnv): Promise<boolean> {
  const { storage } = env;
  let stored: string | null;
  try {
    stored = storage.getItem(APP_VERSION_KEY);
  } catch {
    return false; // Storage is unavailable: there is nothing stale to clear.
  }
  if (stored === currentVersion) return false;
  if (stored === null) {
    safeSet(storage, APP_VERSION_KEY, currentVersion);
    return false;
  }

  const token = storage.getItem(AUTH_TOKEN_KEY);
  storage.clear();
  if (token !== null) safeSet(storage, AUTH_TOKEN_KEY, token);

  if (env.caches) {
    try {
      const names = await env.caches.keys();
      await Promise.all(names.map((name) => env.caches?.delete(name)));
    } catch (error) {
      console.error('Could not clear cached files', error);
    }
  }

  safeSet(storage, APP_VERSION_KEY, currentVersion);
  // Reload only when the new marker stuck; otherwise every load would reload again.
  if (storage.getItem(APP_VERSION_KEY) !== currentVersion) return false;
  env.reload();
  return true;
}

function safeSet(storage: Storage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch (error) {
    console.error(`Could not store ${key}`, error);
  }
}
