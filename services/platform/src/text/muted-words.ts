/**
 * Muted words and hashtags (issue 28): one rule for every service that applies them (social's
 * feeds and comments, search's results, notifications), so a word hides the same things
 * everywhere.
 *
 * A word is kept lower-case and trimmed; a hashtag keeps its '#'. It matches text where it stands
 * as a whole word, in any case: "cat" hides "Cat videos" and "#cat", not "category"; "#cat" hides
 * "#cat" only.
 */

/** The longest muted word or hashtag, in code points. */
export const MUTED_WORD_MAX_LENGTH = 100;

/** How long a muted word lasts: a day, a week, or until removed. */
export const MUTED_WORD_DURATIONS = ['day', 'week', 'forever'] as const;
export type MutedWordDuration = (typeof MUTED_WORD_DURATIONS)[number];

/** The muted word as kept: trimmed, inner runs of spaces made one, lower-case; null when empty or too long. */
export function normalizeMutedWord(raw: string): string | null {
  const word = raw.trim().replace(/\s+/gu, ' ').toLowerCase();
  if (word === '' || word === '#' || [...word].length > MUTED_WORD_MAX_LENGTH) return null;
  return word;
}

/** When a word muted at `now` for `duration` stops hiding things; null for "until removed". */
export function mutedWordExpiry(duration: MutedWordDuration, now: Date): Date | null {
  if (duration === 'forever') return null;
  return new Date(now.getTime() + (duration === 'day' ? 24 : 7 * 24) * 3_600_000);
}

/**
 * A PostgreSQL (ARE) regular expression, used with `~*`, that finds the word as a whole word:
 * neither a letter, digit nor underscore right before or after it.
 */
export function mutedWordPattern(word: string): string {
  const escaped = word.replace(/[\\^$.*+?()[\]{}|]/gu, (c) => `\\${c}`);
  return `(^|[^[:alnum:]_])${escaped}($|[^[:alnum:]_])`;
}

/** The same test in JavaScript (for text that is not in a table: a push, a /ws message). */
export function matchesMutedWord(text: string, word: string): boolean {
  const escaped = word.replace(/[\\^$.*+?()[\]{}|/-]/gu, (c) => `\\${c}`);
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'iu').test(text);
}
