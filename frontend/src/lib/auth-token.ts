/** The session token lives in local storage under this key (spec 000, section 3). */
export const AUTH_TOKEN_KEY = 'authToken';

export function getAuthToken(): string | null {
  try {
    return localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setAuthToken(token: string): void {
  localStorage.setItem(AUTH_TOKEN_KEY, token);
}

export function clearAuthToken(): void {
  try {
    localStorage.removeItem(AUTH_TOKEN_KEY);
  } catch {
    // Storage can be unavailable (private mode); there is then nothing to remove.
  }
}
