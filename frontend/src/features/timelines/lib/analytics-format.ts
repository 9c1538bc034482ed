import type { TimelineAnalytics } from '../api/get-timeline-analytics';

/** The completion rate (the API gives a percentage, 0 to 100, to one decimal) as a whole percentage. */
export function completionPercent(analytics: Pick<TimelineAnalytics, 'completionRate'>): number {
  return Math.round(analytics.completionRate);
}

const hourFormat = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' });

/**
 * The busiest viewing time, which the server gives as a UTC 'HH:MM', in the viewer's own time
 * ('18:00' → '7:00 PM' in London in summer). Anything else is shown as it came.
 */
export function formatPeakTime(value: string, today: Date = new Date()): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!match) return value;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return value;
  const at = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), hours, minutes));
  return hourFormat.format(at);
}
