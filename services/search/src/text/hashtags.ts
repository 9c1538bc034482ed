/**
 * Hashtags as the product writes them (the social service finds them in posts the same way): a
 * letter followed by letters, digits or underscores (any script), up to 50 characters, not right
 * after a letter, digit, underscore, '#' or '@'; lower-cased, once each in order of first use, at
 * most 30.
 */
export const MAX_TAGS = 30;

const HASHTAG = /(?<![\p{L}\p{N}_#@])#(\p{L}[\p{L}\p{N}_]{0,49})(?![\p{L}\p{N}_])/gu;
const TAG_NAME = /^\p{L}[\p{L}\p{N}_]{0,49}$/u;

/** The hashtags written in a text. */
export function hashtagsOf(...texts: string[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(HASHTAG)) {
      seen.add(match[1]!.toLowerCase());
      if (seen.size === MAX_TAGS) return [...seen];
    }
  }
  return [...seen];
}

/** Tags another service sent: kept only when well-formed, lower-cased, once each, at most 30. */
export function validTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    if (TAG_NAME.test(tag)) seen.add(tag.toLowerCase());
    if (seen.size === MAX_TAGS) break;
  }
  return [...seen];
}

/** A hashtag name as a person may type it: with or without '#'; null when it cannot be one. */
export function tagNameOf(text: string): string | null {
  const name = text.trim().replace(/^#/, '').toLowerCase();
  return TAG_NAME.test(name) ? name : null;
}
