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

/** How many muted words one pattern of freeOfMutedWordsSql joins (see there). */
export const MUTED_WORDS_PER_PATTERN = 8;

/**
 * SQL: none of the viewer's muted words that still stand is in `text`, over a table `muted_words`
 * (user_id, pattern, expires_at): social's own, or the copy other services keep.
 *
 * The viewer's words are joined into a few patterns, MUTED_WORDS_PER_PATTERN words each (a word's
 * pattern an alternative), by a subquery PostgreSQL runs once per query when `viewer` is a
 * parameter. A row's text is then read once and matched against at most 25 patterns (200 words, the
 * most a person keeps), which stay in PostgreSQL's cache of 32 compiled expressions for the whole
 * query; a pattern per word would compile all of a long list again for every row. Few words to a
 * pattern because compiling one grows faster than its length. With no words the text is not read
 * at all. `viewer` NULL (anonymous): no words, nothing hidden.
 */
export function freeOfMutedWordsSql(viewer: string, text: string): string {
  const patterns = `(SELECT array_agg(g.pattern) FROM (
      SELECT string_agg('(?:' || w.pattern || ')', '|' ORDER BY w.pattern) AS pattern
        FROM (SELECT mw.pattern, (row_number() OVER (ORDER BY mw.pattern) - 1) / ${MUTED_WORDS_PER_PATTERN} AS part
                FROM muted_words mw WHERE mw.user_id = ${viewer} AND (mw.expires_at IS NULL OR mw.expires_at > now())) w
       GROUP BY w.part) g)`;
  return `(${patterns} IS NULL OR NOT (coalesce(${text}, '') ~* ANY (${patterns}::text[])))`;
}

/** The same test in JavaScript (for text that is not in a table: a push, a /ws message). */
export function matchesMutedWord(text: string, word: string): boolean {
  const escaped = word.replace(/[\\^$.*+?()[\]{}|/-]/gu, (c) => `\\${c}`);
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'iu').test(text);
}
