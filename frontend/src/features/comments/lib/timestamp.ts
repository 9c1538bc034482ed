export type TimestampResult = { seconds: number; error?: undefined } | { seconds?: undefined; error: string };

const WHOLE_NUMBER = /^\d+$/;

/**
 * A comment's moment in the timeline, entered as minutes and seconds (spec 001, section 5).
 * Blank parts count as 0; seconds run from 0 to 59.
 */
export function parseTimestamp(minutes: string, seconds: string): TimestampResult {
  const m = minutes.trim() || '0';
  const s = seconds.trim() || '0';
  if (!WHOLE_NUMBER.test(m) || !WHOLE_NUMBER.test(s)) return { error: 'Use whole numbers for minutes and seconds' };
  const secondsValue = Number(s);
  if (secondsValue > 59) return { error: 'Seconds must be between 0 and 59' };
  return { seconds: Number(m) * 60 + secondsValue };
}
