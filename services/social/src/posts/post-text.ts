/**
 * `#hashtags` and `@mentions` of a text, found when it is written, stored with it and carried in
 * its events (search indexes the tags, notifications tell the people mentioned).
 *
 * A tag is a letter followed by letters, digits or underscores (any script), up to 50 characters;
 * a mention is a username (letters, digits, underscores, up to 30). Neither may follow a letter,
 * digit, underscore or the other sign, so an e-mail address or `a#b` is not one. Both are
 * lower-cased, listed once in order of first use, at most 30 of each.
 */
export const MAX_TAGS = 30;

const HASHTAG = /(?<![\p{L}\p{N}_#@])#(\p{L}[\p{L}\p{N}_]{0,49})(?![\p{L}\p{N}_])/gu;
const MENTION = /(?<![\p{L}\p{N}_#@.])@([A-Za-z0-9_]{1,30})(?![A-Za-z0-9_@])/gu;

function unique(matches: IterableIterator<RegExpMatchArray>): string[] {
  const seen = new Set<string>();
  for (const match of matches) {
    seen.add(match[1]!.toLowerCase());
    if (seen.size === MAX_TAGS) break;
  }
  return [...seen];
}

export const hashtagsOf = (text: string): string[] => unique(text.matchAll(HASHTAG));
export const mentionsOf = (text: string): string[] => unique(text.matchAll(MENTION));
