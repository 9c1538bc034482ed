const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/**
 * 'Just now' under a minute, then minutes, hours up to 24 hours, then days (spec 000, section 9).
 * A date that cannot be read gives 'Recently'.
 */
export function formatRelativeTime(value: string | number | Date, now: number = Date.now()): string {
  try {
    const time = value instanceof Date ? value.getTime() : new Date(value).getTime();
    if (Number.isNaN(time)) return 'Recently';
    const elapsed = now - time;
    if (elapsed < MINUTE) return 'Just now';
    if (elapsed < HOUR) return plural(Math.floor(elapsed / MINUTE), 'minute');
    if (elapsed < DAY) return plural(Math.floor(elapsed / HOUR), 'hour');
    return plural(Math.floor(elapsed / DAY), 'day');
  } catch {
    return 'Recently';
  }
}

/** Seconds as minutes:seconds, seconds zero-padded to two digits: 75 → '1:15'. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.floor(totalSeconds) : 0;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Up to two initials from the words of a name: 'Ada Lovelace King' → 'AL'. */
export function initials(name: string | null | undefined): string {
  const letters = (name ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

/**
 * A formatter made on first use: making one costs (the locale data loads), and most pages show
 * none at start.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

// English month names, as `Intl.DateTimeFormat('en')` writes them: the dates below need no
// formatter, whose first use costs tens of milliseconds on a phone while a page renders.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'March 2025' for a profile's join date; an unreadable date gives ''. */
export function formatMonthYear(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : `${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

const compact = onFirstUse(() => new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }));

/** 1234 → '1.2K'; the exact figure belongs in an accessible label beside it. */
export function formatCount(value: number): string {
  // Below a thousand the compact form is the number itself: no formatter needed.
  if (Number.isInteger(value) && Math.abs(value) < 1000) return String(value);
  return compact().format(value);
}

/** 'Mar 10, 2025' in the viewer's time zone; an unreadable date gives ''. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : `${MONTHS[date.getMonth()]?.slice(0, 3)} ${date.getDate()}, ${date.getFullYear()}`;
}

const grouped = onFirstUse(() => new Intl.NumberFormat('en'));

/**
 * 1234 → '1,234', as `toLocaleString('en')` writes it; below a thousand, without making a
 * formatter (its first use costs tens of milliseconds on a phone while a page renders).
 */
export function formatNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1000) return String(value);
  return grouped().format(value);
}

/** '1 video', '3 videos': a count with its noun, singular for exactly one. */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}
