import { describe, expect, it } from '@jest/globals';
import { altTextOf, characterCount, cleanAltText } from './alt-text-format.js';

describe('cleanAltText', () => {
  it.each([
    ['  plain  ', 'plain'],
    ['<script>alert(1)</script>Cat', 'alert(1)Cat'],
    ['<img src=x onerror=alert(1)>dog', 'dog'],
    ['<<b>b>old', 'old'],
    ['a <!-- note --> b', 'a b'],
    ['a <!-- never closed', 'a'],
    ['2 < 3 > 1', '2 < 3 > 1'],
    ['I <3 you', 'I <3 you'],
    ['\u202Egnp.exe and \u2066iso\u2069', 'gnp.exe and iso'],
    ['bell\u0007 nul\u0000 bom\uFEFF', 'bell nul bom'],
    ['one\r\ntwo\rthree\u2028four', 'one\ntwo\nthree\nfour'],
    ['a\n\n\n\n\nb', 'a\n\nb'],
    ['  a \t  b  \n   c   ', 'a b\nc'],
    ['e\u0301', '\u00e9'],
  ])('%j → %j', (raw, clean) => {
    expect(cleanAltText(raw)).toBe(clean);
  });

  it('is idempotent', () => {
    const once = cleanAltText('<b>x</b>\t y\r\n\r\n\r\nz');
    expect(cleanAltText(once)).toBe(once);
  });

  it('counts characters as people do', () => {
    expect(characterCount('🎬🎬')).toBe(2);
  });

  it('answers deferred only while the text is missing', () => {
    expect(altTextOf({ altText: null, altTextDeferredAt: new Date() })).toEqual({ altText: null, altTextDeferred: true });
    expect(altTextOf({ altText: 'x', altTextDeferredAt: new Date() })).toEqual({ altText: 'x', altTextDeferred: false });
    expect(altTextOf({ altText: null, altTextDeferredAt: null })).toEqual({ altText: null, altTextDeferred: false });
  });
});
