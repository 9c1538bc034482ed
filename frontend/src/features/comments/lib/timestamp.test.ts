import { describe, expect, it } from '@jest/globals';
import { parseTimestamp } from './timestamp';

describe('comment timestamp (m:ss)', () => {
  it('turns minutes and seconds into seconds into the timeline', () => {
    expect(parseTimestamp('1', '15')).toEqual({ seconds: 75 });
    expect(parseTimestamp('12', '05')).toEqual({ seconds: 725 });
  });

  it('reads blank parts as 0', () => {
    expect(parseTimestamp('', '')).toEqual({ seconds: 0 });
    expect(parseTimestamp('2', '')).toEqual({ seconds: 120 });
    expect(parseTimestamp(' ', '9')).toEqual({ seconds: 9 });
  });

  it('rejects seconds over 59 and anything but whole numbers', () => {
    expect(parseTimestamp('1', '60')).toEqual({ error: 'Seconds must be between 0 and 59' });
    expect(parseTimestamp('-1', '0')).toEqual({ error: 'Use whole numbers for minutes and seconds' });
    expect(parseTimestamp('1.5', '0')).toEqual({ error: 'Use whole numbers for minutes and seconds' });
    expect(parseTimestamp('a', '0')).toEqual({ error: 'Use whole numbers for minutes and seconds' });
  });
});
