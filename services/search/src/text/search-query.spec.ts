import { describe, expect, it } from '@jest/globals';
import { normalizedQuery, parseQuery } from './search-query.js';

describe('parseQuery', () => {
  it('takes the last word as a prefix while it is typed', () => {
    expect(parseQuery('super')).toEqual({ scope: 'all', text: 'super', strict: '', words: [], prefix: 'super' });
    expect(parseQuery('flying super')).toEqual({ scope: 'all', text: 'flying super', strict: '', words: ['flying'], prefix: 'super' });
    expect(parseQuery('flying super ')).toEqual({ scope: 'all', text: 'flying super', strict: '', words: ['flying', 'super'], prefix: null });
  });

  it('leaves phrases, exclusions and compound words to websearch_to_tsquery', () => {
    expect(parseQuery('"dark knight" gotham -joker spider-man bat')).toEqual({
      scope: 'all',
      text: '"dark knight" gotham -joker spider-man bat',
      strict: '"dark knight" -joker spider-man',
      words: ['gotham'],
      prefix: 'bat',
    });
    expect(parseQuery('knight -joker').prefix).toBeNull();
    expect(parseQuery('"dark knight"').prefix).toBeNull();
  });

  it('reads the whole query as websearch syntax when it has or', () => {
    expect(parseQuery('cats or dogs')).toEqual({ scope: 'all', text: 'cats or dogs', strict: 'cats or dogs', words: [], prefix: null });
  });

  it('knows #tags and @people', () => {
    expect(parseQuery('#Superhero')).toEqual(expect.objectContaining({ scope: 'hashtags', text: 'Superhero' }));
    expect(parseQuery('@ada')).toEqual(expect.objectContaining({ scope: 'people', text: 'ada', prefix: 'ada' }));
    // A #tag inside a query is its word.
    expect(parseQuery('walks #gotham ').words).toEqual(['walks', 'gotham']);
  });

  it('keeps at most 12 words and no control characters', () => {
    expect(parseQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ') + ' ').words).toHaveLength(12);
    expect(parseQuery('a\u0000b\u0007c').text).toBe('a b c');
  });
});

describe('normalizedQuery', () => {
  it('is trimmed, lower case, with single spaces', () => {
    expect(normalizedQuery('  Super   MAN ')).toBe('super man');
  });
});
