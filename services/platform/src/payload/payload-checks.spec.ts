import { describe, expect, it } from '@jest/globals';
import { clipCodePoints, clipCodeUnits, idOf, isUuid } from './payload-checks.js';

describe('payload checks', () => {
  it('knows a UUID in either case, and gives its canonical form', () => {
    expect(isUuid('0b6f6a7e-94c1-4f4e-9a53-3c1d2e4f5a6b')).toBe(true);
    expect(isUuid('0B6F6A7E-94C1-4F4E-9A53-3C1D2E4F5A6B')).toBe(true);
    for (const bad of ['', 'not-a-uuid', '0b6f6a7e-94c1-4f4e-9a53-3c1d2e4f5a6', '0b6f6a7e94c14f4e9a533c1d2e4f5a6b', ' 0b6f6a7e-94c1-4f4e-9a53-3c1d2e4f5a6b']) expect(isUuid(bad)).toBe(false);
    expect(idOf('0B6F6A7E-94C1-4F4E-9A53-3C1D2E4F5A6B')).toBe('0b6f6a7e-94c1-4f4e-9a53-3c1d2e4f5a6b');
    expect(idOf('nope')).toBeNull();
  });

  it('clips to code points as varchar(n) counts them, never cutting an emoji', () => {
    expect(clipCodePoints('abc', 5)).toBe('abc');
    expect(clipCodePoints('a😀b😀c', 3)).toBe('a😀b');
    expect(clipCodeUnits('a😀b😀c', 3)).toBe('a😀');
    expect(clipCodeUnits('abcdef', 3)).toBe('abc');
  });
});
