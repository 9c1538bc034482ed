import { describe, expect, it } from '@jest/globals';
import { formatCount, formatDate, formatNumber, formatDuration, formatMonthYear, formatRelativeTime, initials, pluralize } from './format';

const now = Date.parse('2025-06-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatRelativeTime', () => {
  it.each([
    [0, 'Just now'],
    [59_000, 'Just now'],
    [MINUTE, '1 minute ago'],
    [2 * MINUTE, '2 minutes ago'],
    [59 * MINUTE, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [5 * HOUR, '5 hours ago'],
    [23 * HOUR + 59 * MINUTE, '23 hours ago'],
    [DAY, '1 day ago'],
    [3 * DAY, '3 days ago'],
    [400 * DAY, '400 days ago'],
  ])('%d ms ago reads %s', (elapsed, text) => {
    expect(formatRelativeTime(ago(elapsed), now)).toBe(text);
  });

  it("says 'Recently' for a date it cannot read", () => {
    expect(formatRelativeTime('not a date', now)).toBe('Recently');
  });

  it('takes dates and timestamps too', () => {
    expect(formatRelativeTime(new Date(now - 2 * HOUR), now)).toBe('2 hours ago');
    expect(formatRelativeTime(now - 10 * MINUTE, now)).toBe('10 minutes ago');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [59, '0:59'],
    [60, '1:00'],
    [75, '1:15'],
    [3599, '59:59'],
    [3725, '62:05'],
    [75.9, '1:15'],
    [Number.NaN, '0:00'],
    [-4, '0:00'],
  ])('%d s reads %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('initials', () => {
  it('takes the first letters of up to two words', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('ada lovelace byron')).toBe('AL');
    expect(initials('Plato')).toBe('P');
    expect(initials('  ')).toBe('?');
  });
});

describe('pluralize', () => {
  it('says "1 view" and "2 views", never "1 views"', () => {
    expect(pluralize(1, 'view')).toBe('1 view');
    expect(pluralize(0, 'view')).toBe('0 views');
    expect(pluralize(2, 'video')).toBe('2 videos');
    expect(pluralize(1234, 'like')).toBe('1,234 likes');
    expect(pluralize(1, 'reply', 'replies')).toBe('1 reply');
    expect(pluralize(3, 'reply', 'replies')).toBe('3 replies');
  });
});

describe('dates and counts written without a formatter', () => {
  it('write every month as the English formatter does, in the viewer’s time zone', () => {
    const long = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });
    const short = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', year: 'numeric' });
    for (let month = 0; month < 12; month++) {
      for (const day of [1, 9, 28]) {
        const date = new Date(2025, month, day, 12);
        expect(formatMonthYear(date.toISOString())).toBe(long.format(date));
        expect(formatDate(date.toISOString())).toBe(short.format(date));
      }
    }
    expect(formatMonthYear('not a date')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(null)).toBe('');
  });

  it('counts as the compact formatter does', () => {
    const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
    for (const value of [0, 1, 7, 42, 999, 1000, 1234, 15_500, 999_999, 1_200_000, 2.5]) expect(formatCount(value)).toBe(compact.format(value));
    for (const value of [0, 1, -3, 42, 999, 1000, 1234, 15_500, 1_200_000, 2.5, 1234.5678]) expect(formatNumber(value)).toBe(value.toLocaleString('en'));
  });
});
