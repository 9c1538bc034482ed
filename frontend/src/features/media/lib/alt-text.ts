/** What a person is asked for: an image has alt text, a video a short description (the server's limits). */
export type AltKind = 'image' | 'video';

export const ALT_TEXT_LIMIT: Record<AltKind, number> = { image: 1500, video: 500 };

export const altNoun = (kind: AltKind) => (kind === 'image' ? 'alt text' : 'description');

/** Characters as the server counts them (an emoji is one). */
export const altLength = (text: string) => [...text.trim()].length;

/** The problem with a text before it is sent, or null. */
export function altTextProblem(kind: AltKind, text: string): string | null {
  const length = altLength(text);
  if (length === 0) return kind === 'image' ? 'Alt text is required' : 'The description is required';
  if (length > ALT_TEXT_LIMIT[kind]) return `${kind === 'image' ? 'Alt text' : 'The description'} must be at most ${ALT_TEXT_LIMIT[kind]} characters`;
  return null;
}
