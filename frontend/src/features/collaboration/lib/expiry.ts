const DAY = 24 * 60 * 60 * 1000;

function startOfDay(time: number): number {
  const date = new Date(time);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** True once the expiry time has passed. An unreadable date counts as expired. */
export function isExpired(expiresAt: string, now: number = Date.now()): boolean {
  const time = new Date(expiresAt).getTime();
  return Number.isNaN(time) || time <= now;
}

/**
 * An invitation's expiry as days remaining (spec 001, section 9): 'Expired', 'Expires today',
 * 'Expires tomorrow' or 'Expires in n days', counted in calendar days where the person is.
 */
export function expiryText(expiresAt: string, now: number = Date.now()): string {
  if (isExpired(expiresAt, now)) return 'Expired';
  const days = Math.round((startOfDay(new Date(expiresAt).getTime()) - startOfDay(now)) / DAY);
  if (days <= 0) return 'Expires today';
  if (days === 1) return 'Expires tomorrow';
  return `Expires in ${days} days`;
}
