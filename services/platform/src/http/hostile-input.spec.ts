import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { DEPTH_MESSAGE, hostileInput, MAX_JSON_DEPTH, NUL_MESSAGE } from './hostile-input.js';

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('hostileInput', () => {
  it('accepts ordinary bodies and queries', () => {
    expect(hostileInput({ title: 'Summer ☀️', tags: ['a', 'b'], n: 1, ok: true, none: null })).toBeNull();
    expect(hostileInput(undefined)).toBeNull();
    expect(hostileInput(nested(MAX_JSON_DEPTH - 1))).toBeNull();
    // Streamed bodies are objects too, with deep internals; they are not parsed data.
    expect(hostileInput(Readable.from([Buffer.from('\u0000')]))).toBeNull();
    expect(hostileInput(Buffer.from([0, 0, 0]))).toBeNull();
  });

  it('refuses a NUL character in any string or key, however deep', () => {
    expect(hostileInput({ title: 'a\u0000b' })).toBe(NUL_MESSAGE);
    expect(hostileInput({ list: [{ deeper: ['x', 'y\u0000'] }] })).toBe(NUL_MESSAGE);
    expect(hostileInput({ 'k\u0000': 1 })).toBe(NUL_MESSAGE);
    expect(hostileInput('\u0000')).toBe(NUL_MESSAGE);
  });

  it('refuses nesting past the limit without walking all of it', () => {
    expect(hostileInput(nested(MAX_JSON_DEPTH + 1))).toBe(DEPTH_MESSAGE);
    expect(hostileInput(nested(20_000))).toBe(DEPTH_MESSAGE);
  });
});
