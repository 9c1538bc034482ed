/**
 * `#hashtags` and `@mentions` of a text, found when it is written, stored with it and carried in
 * its events (search indexes the tags, notifications tell the people mentioned).
 *
 * A tag is a letter followed by letters, digits or underscores (any script), up to 50 characters.
 * A mention is a whole username in the characters of registration (up to 30 of the letters A–Z,
 * digits, dots and underscores): `@x.smith` names `x.smith`, never `x`; a name no account has
 * (shorter than registration allows, say) simply tells nobody. A dot
 * that ends the name is read as the sentence's full stop (`hi @ada.` names `ada`). A name glued
 * to a letter, digit or mark of any script (`@adaé`, `@ada.é`) is not one, nor is a longer name cut
 * to fit.
 *
 * Neither may follow a letter, digit, mark, underscore, dot or either sign, so an e-mail address,
 * `@@ada` or `a#b` is not one. Both are lower-cased, listed once in order of first use, at most 30
 * of each.
 */
export const MAX_TAGS = 30;

const HASHTAG = /(?<![\p{L}\p{N}_#@])#(\p{L}[\p{L}\p{N}_]{0,49})(?![\p{L}\p{N}_])/gu;
/** Up to 30 username characters, not ending with a dot, followed by neither another name character nor a dot that goes on with one. */
const MENTION = /(?<![\p{L}\p{M}\p{N}_#@.])@([A-Za-z0-9_.]{0,29}[A-Za-z0-9_])(?![\p{L}\p{M}\p{N}_@]|\.+[\p{L}\p{M}\p{N}_])/gu;

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
