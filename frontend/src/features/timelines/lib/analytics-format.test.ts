import { describe, expect, it } from '@jest/globals';
import { completionPercent, formatPeakTime } from './analytics-format';

describe('analytics figures', () => {
  it('shows the completion rate as a whole percentage', () => {
    expect(completionPercent({ completionRate: 62.4 })).toBe(62);
    expect(completionPercent({ completionRate: 100 })).toBe(100);
  });

  it("turns the server's UTC peak hour into the viewer's local time", () => {
    const day = new Date(Date.UTC(2025, 0, 15));
    const expected = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(new Date(Date.UTC(2025, 0, 15, 18, 0)));
    expect(formatPeakTime('18:00', day)).toBe(expected);
  });

  it('shows anything else as it came', () => {
    expect(formatPeakTime('Evenings')).toBe('Evenings');
    expect(formatPeakTime('25:00')).toBe('25:00');
  });
});
