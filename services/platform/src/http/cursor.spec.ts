import { describe, expect, it } from '@jest/globals';
import { decodeCursor, encodeCursor } from './cursor.js';

describe('decodeCursor', () => {
  const id = '3f2b1c4d-1111-4222-8333-444455556666';

  it('reads back what encodeCursor wrote', () => {
    const key = [42, '2026-11-25T06:00:00.123456Z', id];
    expect(decodeCursor(encodeCursor(key), ['int', 'timestamp', 'uuid'])).toEqual(key);
  });

  it.each([
    ['an impossible date', ['2026-13-45T99:99:99.000000Z'], ['timestamp']],
    ['February 30th', ['2026-02-30T00:00:00.000000Z'], ['timestamp']],
    ['a year before 1970', ['0001-01-01T00:00:00.000000Z'], ['timestamp']],
    ['a score of 2^53-1 for an integer column', [2 ** 53 - 1], ['int']],
    ['an integer beyond int4', [2 ** 31], ['int']],
    ['an unsafe integer for a bigint', [2 ** 53 + 2], ['bigint']],
    ['a fraction', [1.5], ['int']],
    ['an upper-case uuid', [id.toUpperCase()], ['uuid']],
    ['too few parts', [1], ['int', 'uuid']],
  ])('refuses %s', (_what, key, kinds) => {
    expect(() => decodeCursor(encodeCursor(key as Array<string | number>), kinds as Array<'int' | 'bigint' | 'timestamp' | 'uuid'>)).toThrow('Invalid cursor');
  });

  it('refuses what is not a cursor at all', () => {
    expect(() => decodeCursor('not-a-cursor', ['int'])).toThrow('Invalid cursor');
    expect(() => decodeCursor('a'.repeat(201), ['int'])).toThrow('Invalid cursor');
  });

  it('takes a safe integer for a bigint part', () => {
    expect(decodeCursor(encodeCursor([2 ** 53 - 1]), ['bigint'])).toEqual([2 ** 53 - 1]);
  });
});
