import { describe, expect, it } from '@jest/globals';
import { expiryText, isExpired } from './expiry';

// Local noon, so calendar-day arithmetic does not depend on the machine's time zone.
const now = new Date(2025, 2, 10, 12, 0, 0).getTime();
const at = (days: number, hours = 12) => new Date(2025, 2, 10 + days, hours, 0, 0).toISOString();

describe('invitation expiry', () => {
  it("says 'Expired' once the time has passed", () => {
    expect(expiryText(at(0, 11), now)).toBe('Expired');
    expect(expiryText(at(-3), now)).toBe('Expired');
    expect(isExpired(at(-1), now)).toBe(true);
    expect(isExpired('not a date', now)).toBe(true);
  });

  it("says 'Expires today' later the same day", () => {
    expect(expiryText(at(0, 23), now)).toBe('Expires today');
  });

  it("says 'Expires tomorrow' for the next calendar day, even a few hours away", () => {
    expect(expiryText(at(1, 1), now)).toBe('Expires tomorrow');
    expect(expiryText(at(1, 22), now)).toBe('Expires tomorrow');
  });

  it("says 'Expires in n days' further out", () => {
    expect(expiryText(at(2), now)).toBe('Expires in 2 days');
    expect(expiryText(at(7), now)).toBe('Expires in 7 days');
    expect(isExpired(at(7), now)).toBe(false);
  });
});
