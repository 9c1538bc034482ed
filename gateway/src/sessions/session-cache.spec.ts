import { describe, expect, it } from '@jest/globals';
import { ExpiringLru } from './session-cache.js';

describe('ExpiringLru', () => {
  it('drops the least recently used entry beyond its size', () => {
    const lru = new ExpiringLru<number>(2);
    lru.set('a', 1, 1_000);
    lru.set('b', 2, 1_000);
    lru.get('a');
    lru.set('c', 3, 1_000);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3]);
  });

  it('forgets entries when they expire', () => {
    let now = 0;
    const lru = new ExpiringLru<string>(10, () => now);
    lru.set('k', 'v', 100);
    now = 99;
    expect(lru.get('k')).toBe('v');
    now = 100;
    expect(lru.get('k')).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('ignores non-positive lifetimes and deletes by value', () => {
    const lru = new ExpiringLru<{ user: string }>(10);
    lru.set('x', { user: 'a' }, 0);
    expect(lru.size).toBe(0);
    lru.set('y', { user: 'a' }, 10_000);
    lru.set('z', { user: 'b' }, 10_000);
    expect(lru.deleteWhere((v) => v.user === 'a')).toBe(1);
    expect(lru.get('z')).toEqual({ user: 'b' });
  });
});
