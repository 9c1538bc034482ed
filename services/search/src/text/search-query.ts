/**
 * What a person typed into the search box, taken apart for the database. The syntax is
 * `websearch_to_tsquery`'s (quoted phrases, `-word` to exclude, `or`), plus:
 *
 * - a query starting with `#` looks for hashtags, one starting with `@` for people;
 * - the last word, while it is still being typed (no space after it), matches as a prefix, so
 *   "super" finds "Superman" (type-ahead);
 * - plain words (letters and digits only) may be widened to known words like them when they
 *   match nothing as typed (typo tolerance, see search.repository.ts).
 */
export const MAX_QUERY_LENGTH = 200;
/** Words taken from one query; the rest are ignored. */
export const MAX_QUERY_WORDS = 12;

export type SearchScope = 'all' | 'hashtags' | 'people';

export interface ParsedQuery {
  scope: SearchScope;
  /** The text without its `#` or `@`, trimmed. */
  text: string;
  /**
   * The part `websearch_to_tsquery` reads as is: phrases, exclusions, `or`, and words that are not
   * plain (`spider-man`, `o'neil`). Empty when there is none.
   */
  strict: string;
  /** Plain words, each matched as typed or, failing that, through similar known words. */
  words: string[];
  /** The last plain word, matched as a prefix; null when the query ends in a space, a quote or an exclusion. */
  prefix: string | null;
}

const PLAIN_WORD = /^[\p{L}\p{N}]+$/u;
/** Tokens of the websearch syntax: a quoted phrase (closed or not), or a run of non-space. */
const TOKEN = /"[^"]*"?|\S+/gu;

export function parseQuery(input: string): ParsedQuery {
  let text = input.replace(/\p{Cc}/gu, ' ').trim();
  let scope: SearchScope = 'all';
  if (text.startsWith('#')) scope = 'hashtags';
  else if (text.startsWith('@')) scope = 'people';
  if (scope !== 'all') text = text.slice(1).trim();

  const tokens = (text.match(TOKEN) ?? []).slice(0, MAX_QUERY_WORDS);
  // With `or` the words depend on each other; websearch_to_tsquery reads the whole query.
  if (tokens.some((t) => t.toLowerCase() === 'or')) return { scope, text, strict: tokens.join(' '), words: [], prefix: null };

  const strict: string[] = [];
  const words: string[] = [];
  let prefix: string | null = null;
  const stillTyping = !/[\s"]$/u.test(input);
  tokens.forEach((token, i) => {
    const bare = token.replace(/^#/, '');
    if (PLAIN_WORD.test(bare)) {
      if (i === tokens.length - 1 && stillTyping) prefix = bare;
      else words.push(bare);
    } else {
      strict.push(token);
    }
  });
  return { scope, text, strict: strict.join(' '), words, prefix };
}

/** A query as search history keeps it: trimmed, spaces collapsed, lower case. */
export const normalizedQuery = (query: string): string => query.trim().replace(/\s+/gu, ' ').toLowerCase().slice(0, MAX_QUERY_LENGTH);
