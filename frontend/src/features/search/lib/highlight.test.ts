import { describe, expect, it } from '@jest/globals';
import { excerpt, highlightSegments, queryTerms } from './highlight';

const marked = (text: string, query: string) => highlightSegments(text, queryTerms(query)).filter((s) => s.match).map((s) => s.text);

describe('search highlights', () => {
  it('marks word starts, ignoring case and accents', () => {
    expect(marked('Crème brûlée at the Café', 'creme CAFE')).toEqual(['Crème', 'Café']);
    expect(marked('Superman returns', 'super')).toEqual(['Super']);
    // Not inside a word.
    expect(marked('Batman and Superman', 'man')).toEqual([]);
  });

  it('reads the query as the server does: phrases word by word, no exclusions, no or, no # or @', () => {
    expect(queryTerms('"dark knight" -joker or #gotham @ada')).toEqual(['knight', 'gotham', 'dark', 'ada']);
  });

  it('keeps the whole text, in order', () => {
    const segments = highlightSegments('Dark knight rises', queryTerms('knight'));
    expect(segments.map((s) => s.text).join('')).toBe('Dark knight rises');
    expect(segments).toEqual([
      { text: 'Dark ', match: false },
      { text: 'knight', match: true },
      { text: ' rises', match: false },
    ]);
  });

  it('cuts a long text around its first match', () => {
    const text = `${'filler '.repeat(60)}the estuary at low tide ${'more '.repeat(40)}`;
    const cut = excerpt(text, queryTerms('estuary'));
    expect(cut).toContain('estuary');
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(162);
  });
});
