export const TITLE_REQUIRED = 'Timeline title is required';

/** Spec 001 section 5: a title of at least one character (spaces alone do not count). */
export function validateTimelineTitle(title: string): string | undefined {
  return title.trim() ? undefined : TITLE_REQUIRED;
}
