/**
 * Characters a stored name never keeps: C0 and C1 controls (NUL among them, which Postgres text
 * refuses), the line and paragraph separators, and the bidirectional formatting characters that
 * reorder what is shown around them (embeddings, overrides, isolates, the marks), so that
 * `\u202Egnp.mp4` cannot show as `mp4.png`.
 */
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A name as it may be stored and shown (file names, titles, tus metadata): without the characters
 * above. The one sanitiser for every stored name; trimming and length are the caller's rules.
 */
export function cleanName(name: string): string {
  return name.replace(UNSAFE_IN_NAMES, '');
}

/**
 * The class-transformer step for a DTO's name field (`@Transform(toCleanName)`): cleaned as above,
 * then trimmed; anything but a string is left for the validators to refuse.
 */
export const toCleanName = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? cleanName(value).trim() : value);
