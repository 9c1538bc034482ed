import { describe, expect, it } from '@jest/globals';
import { assertValidDirectoryPrefix, assertValidKey, assertValidPartList, assertValidPrefix } from './object-key.js';
import { InvalidMultipartError, InvalidObjectKeyError } from './object-storage.port.js';

describe('object keys', () => {
  it.each(['videos/0b6f4c1e-2a/original', 'a', 'a.b-c_d/E9', '.hidden/x', 'x/.y'])('accepts %j', (key) => {
    expect(() => assertValidKey(key)).not.toThrow();
  });

  it.each(['', '..', '../a', 'a/..', 'a/../b', 'a..b', '/a', 'a//b', 'a/', './a', 'a/./b', 'a b', 'a\\b', 'a~b', 'a?b', 'é', 'x'.repeat(1025)])(
    'rejects %j',
    (key) => {
      expect(() => assertValidKey(key)).toThrow(InvalidObjectKeyError);
    },
  );

  it('accepts partial prefixes for listing but only whole directories for deleting', () => {
    expect(() => assertValidPrefix('')).not.toThrow();
    expect(() => assertValidPrefix('videos/ab')).not.toThrow();
    expect(() => assertValidPrefix('../')).toThrow(InvalidObjectKeyError);
    expect(() => assertValidDirectoryPrefix('videos/ab/')).not.toThrow();
    expect(() => assertValidDirectoryPrefix('videos/ab')).toThrow(InvalidObjectKeyError);
    expect(() => assertValidDirectoryPrefix('')).toThrow(InvalidObjectKeyError);
  });
});

describe('part lists', () => {
  const part = (partNumber: number) => ({ partNumber, etag: 'e', size: 1 });

  it('accepts ascending part numbers with gaps', () => {
    expect(() => assertValidPartList([part(1), part(3), part(10_000)])).not.toThrow();
  });

  it.each([[[]], [[part(2), part(1)]], [[part(1), part(1)]], [[part(0)]], [[part(10_001)]], [[{ ...part(1), etag: '' }]]])(
    'rejects %j',
    (parts) => {
      expect(() => assertValidPartList(parts)).toThrow(InvalidMultipartError);
    },
  );
});
