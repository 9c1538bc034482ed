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

const joinedFormat = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });

/** 'March 2025' for a profile's join date; an unreadable date gives ''. */
export function formatMonthYear(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : joinedFormat.format(date);
}

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** 1234 → '1.2K'; the exact figure belongs in an accessible label beside it. */
export function formatCount(value: number): string {
  return compact.format(value);
}

const dateFormat = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', year: 'numeric' });

/** 'Mar 10, 2025' in the viewer's time zone; an unreadable date gives ''. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** '1 video', '3 videos': a count with its noun, singular for exactly one. */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? singular : plural}`;
}
