import type { Media } from '../media/media.entity.js';

/** Longest alt text of an image, in characters (as the larger social networks allow). */
export const MAX_IMAGE_ALT_TEXT = 1500;
/** Longest description of a video: a short one, what a screen reader reads before it plays. */
export const MAX_VIDEO_DESCRIPTION = 500;

export const ALT_TEXT_DESCRIPTION =
  "An image's alt text or a video's short description, in plain text (at most 1500 characters for an image, 500 for a video); null while missing.";
export const ALT_TEXT_DEFERRED_DESCRIPTION = 'The alt text (or description) is missing and its creators chose "Add later": the upload prompt is not shown again for it.';

/** What the person is asked for: an image has alt text, a video a description. */
export const altTextNoun = (type: Media['mediaType']): string => (type === 'image' ? 'Alt text' : 'The description');

export function altTextRequired(type: Media['mediaType']): string {
  return `${altTextNoun(type)} is required`;
}

export function altTextTooLong(type: Media['mediaType']): string {
  return `${altTextNoun(type)} must be at most ${type === 'image' ? MAX_IMAGE_ALT_TEXT : MAX_VIDEO_DESCRIPTION} characters`;
}

/** Control characters (but the line feed) and the bidirectional formatting characters that reorder what is shown around them. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** Markup: comments, and anything shaped like an HTML tag (`<b>`, `</p>`, `<img src=x>`); `a < b` and `<3` are text. */
const COMMENTS = /<!--[\s\S]*?(-->|$)/g;
const TAGS = /<\/?[A-Za-z][^<>]*>/g;

/**
 * Alt text as it is stored and shown: plain text. Markup is removed (its words kept), control and
 * bidirectional formatting characters dropped, tabs and runs of spaces made one space, lines
 * trimmed, at most one empty line in a row, and the whole trimmed. React shows it as text, so
 * nothing in it is ever markup.
 */
export function cleanAltText(raw: string): string {
  let text = raw.normalize('NFC').replace(/\r\n?|\u2028|\u2029/g, '\n').replace(/\t/g, ' ').replace(UNSAFE, '');
  let previous: string;
  do {
    previous = text;
    text = text.replace(COMMENTS, '').replace(TAGS, '');
  } while (text !== previous);
  return text
    .split('\n')
    .map((line) => line.replace(/[^\S\n]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Characters as a person counts them (an emoji is one). */
export const characterCount = (text: string): number => [...text].length;

/** The class-transformer step of the alt text field; anything but a string is left for the validators. */
export const toCleanAltText = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? cleanAltText(value) : value);

/** The alt text fields of a media item's answers. */
export function altTextOf(m: Pick<Media, 'altText' | 'altTextDeferredAt'>): { altText: string | null; altTextDeferred: boolean } {
  const altText = m.altText ?? null;
  return { altText, altTextDeferred: altText === null && Boolean(m.altTextDeferredAt) };
}
