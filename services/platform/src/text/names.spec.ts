import { describe, expect, it } from '@jest/globals';
import { cleanName, toCleanName } from './names.js';

describe('cleanName', () => {
  it('drops controls (NUL, DEL, C1) and the bidirectional formatting characters, keeps the rest', () => {
    expect(cleanName('\u202Egnp.mp4')).toBe('gnp.mp4');
    expect(cleanName('a\u0000b\u007fc\u0085d.mov')).toBe('abcd.mov');
    expect(cleanName('x\u2066y\u2069\u200e\u200f\u061cz\u2028')).toBe('xyz');
    expect(cleanName('Été à Zürich — 東京 🎬.mp4')).toBe('Été à Zürich — 東京 🎬.mp4');
  });

  it('as a DTO transform: cleaned then trimmed, non-strings left to the validators', () => {
    expect(toCleanName({ value: ' \u202Ecod.exe\u202C ' })).toBe('cod.exe');
    expect(toCleanName({ value: 42 })).toBe(42);
  });
});
