/**
 * Times written by people: `1:23` and `01:02:03` in a comment, `mm:ss Title` lines in a
 * description (a video's chapters). Pure functions, shared by the player and its comments.
 */

/** A named point in a video, from `start` seconds to the next chapter (or the end). */
export interface Chapter {
  start: number;
  title: string;
}

/** A chapter's title is cut to this many characters. */
export const CHAPTER_TITLE_MAX = 100;
/** At most this many chapters are read from one text. */
export const CHAPTERS_MAX = 100;

// `m:ss`, `mm:ss`, `h:mm:ss` or `hh:mm:ss`: seconds (and minutes after an hour) always two digits,
// below 60. Three-digit minutes (`125:00`) are not a time people write; they are left as text.
const CLOCK = /^(?:(\d{1,2}):([0-5]\d)|(\d{1,2}):([0-5]\d):([0-5]\d))$/;

/** Seconds from a clock time (`1:23`, `01:02:03`), or null when the text is not one. */
export function parseClockTime(text: string): number | null {
  const match = CLOCK.exec(text.trim());
  if (!match) return null;
  if (match[1] !== undefined) return Number(match[1]) * 60 + Number(match[2]);
  return Number(match[3]) * 3600 + Number(match[4]) * 60 + Number(match[5]);
}

/** A clock time as people write it: 83 → `1:23`, 3723 → `1:02:03`. */
export function formatClockTime(totalSeconds: number): string {
  const seconds = Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.floor(totalSeconds) : 0;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

// A chapter line: an optional list mark, the time (optionally in brackets), an optional separator,
// then the title. `0:00 Intro`, `- 1:23 – The climb`, `[01:02:03] End`.
const CHAPTER_LINE = /^\s*(?:[-*•]\s+)?[([]?(\d{1,2}:\d{2}(?::\d{2})?)[)\]]?\s*(?:[-–—:|.]\s*)?(.*)$/u;

/**
 * The chapters written in a text, one per line beginning with its time (`0:00 Intro`). Lines
 * without a time at their start, or without a title, are skipped; the chapters come back in time
 * order, one per second (the first line wins), and only those before `duration` when it is known.
 */
export function chaptersFromText(text: string | null | undefined, duration = 0): Chapter[] {
  if (!text) return [];
  const seen = new Map<number, Chapter>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const match = CHAPTER_LINE.exec(line);
    if (!match) continue;
    const start = parseClockTime(match[1] ?? '');
    // Runs of spaces (tabs too) folded, control characters out of the title; the rest is shown as text.
    const title = (match[2] ?? '').replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, CHAPTER_TITLE_MAX).trim();
    if (start === null || !title) continue;
    if (duration > 0 && start >= duration) continue;
    if (!seen.has(start)) seen.set(start, { start, title });
    if (seen.size >= CHAPTERS_MAX) break;
  }
  return [...seen.values()].sort((a, b) => a.start - b.start);
}

/** The chapter playing at `time` (the last one started), or null before the first. */
export function chapterAt(chapters: readonly Chapter[], time: number): Chapter | null {
  let current: Chapter | null = null;
  for (const chapter of chapters) {
    if (chapter.start <= time) current = chapter;
    else break;
  }
  return current;
}

/** A piece of a comment: plain text, or a time written in it (`seconds` into the video). */
export type TextPiece = { text: string } | { text: string; seconds: number };

// A time standing on its own: not inside a longer run of digits, colons or a decimal, not a
// clock reading (`12:30pm`), not a ratio or a score inside a word.
const TIME_IN_TEXT = /(?<![\w:.])(\d{1,2}:\d{2}(?::\d{2})?)(?![\w:]|\.\d|\s?[ap]\.?m\b)/giu;

/**
 * A comment's text cut at the times written in it (`1:23`, `01:02:03`). A time past `duration`
 * (when known) is left as text: it points at nothing in this video.
 */
export function timesInText(text: string, duration = 0): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(TIME_IN_TEXT)) {
    const written = match[1] ?? '';
    const seconds = parseClockTime(written);
    if (seconds === null || (duration > 0 && seconds > duration)) continue;
    const at = match.index;
    if (at > last) pieces.push({ text: text.slice(last, at) });
    pieces.push({ text: written, seconds });
    last = at + written.length;
  }
  if (last < text.length || pieces.length === 0) pieces.push({ text: text.slice(last) });
  return pieces;
}
