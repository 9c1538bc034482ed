import { describe, expect, it, jest } from '@jest/globals';
import { APP_VERSION_KEY, applyVersionMarker } from './app-version';
import { AUTH_TOKEN_KEY } from './auth-token';

function fakeCaches(names: string[]) {
  const deleted: string[] = [];
  const caches = {
    keys: jest.fn(async () => [...names]),
    delete: jest.fn(async (name: string) => {
      deleted.push(name);
      return true;
    }),
  };
  return { caches: caches as unknown as CacheStorage, deleted };
}

describe('app version marker', () => {
  it('stores the version on a first visit without clearing or reloading', async () => {
    localStorage.setItem('pwa-install-dismissed', '123');
    const reload = jest.fn();
    const { caches, deleted } = fakeCaches(['timeliner-shell-a']);
    await expect(applyVersionMarker('1.0.0+a', { storage: localStorage, caches, reload })).resolves.toBe(false);
    expect(localStorage.getItem(APP_VERSION_KEY)).toBe('1.0.0+a');
    expect(localStorage.getItem('pwa-install-dismissed')).toBe('123');
    expect(deleted).toEqual([]);
    expect(reload).not.toHaveBeenCalled();
  });

  it('does nothing when the stored version matches', async () => {
    localStorage.setItem(APP_VERSION_KEY, '1.0.0+a');
    localStorage.setItem('other', 'kept');
    const reload = jest.fn();
    await expect(applyVersionMarker('1.0.0+a', { storage: localStorage, reload })).resolves.toBe(false);
    expect(localStorage.getItem('other')).toBe('kept');
    expect(reload).not.toHaveBeenCalled();
  });

  it('on a mismatch keeps only the auth token, clears Cache Storage, stores the version and reloads once', async () => {
    localStorage.setItem(APP_VERSION_KEY, '1.0.0+old');
    localStorage.setItem(AUTH_TOKEN_KEY, 'token-1');
    localStorage.setItem('pwa-install-dismissed', '123');
    localStorage.setItem('some-cache', '{}');
    const reload = jest.fn();
    const { caches, deleted } = fakeCaches(['timeliner-shell-a', 'images']);

    await expect(applyVersionMarker('1.0.0+new', { storage: localStorage, caches, reload })).resolves.toBe(true);
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('token-1');
    expect(localStorage.getItem('pwa-install-dismissed')).toBeNull();
    expect(localStorage.getItem('some-cache')).toBeNull();
    expect(localStorage.getItem(APP_VERSION_KEY)).toBe('1.0.0+new');
    expect(deleted).toEqual(['timeliner-shell-a', 'images']);
    expect(reload).toHaveBeenCalledTimes(1);

    // After the reload the versions agree: no second reload.
    await expect(applyVersionMarker('1.0.0+new', { storage: localStorage, caches, reload })).resolves.toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload when the new version cannot be stored (that would loop)', async () => {
    const values = new Map<string, string>([[APP_VERSION_KEY, 'old']]);
    const storage = {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      clear: () => values.clear(),
    } as unknown as Storage;
    const reload = jest.fn();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(applyVersionMarker('new', { storage, reload })).resolves.toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
