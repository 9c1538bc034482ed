import { describe, expect, it } from '@jest/globals';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { timestampFromMicros } from './snapshot.js';

describe('timestampFromMicros', () => {
  it('keeps every microsecond Postgres stores', () => {
    const t = timestampFromMicros('1772359200123456');
    expect(t.seconds).toBe(1_772_359_200n);
    expect(t.nanos).toBe(123_456_000);
    expect(timestampDate(t).toISOString()).toBe('2026-03-01T10:00:00.123Z');
  });

  it('keeps nanos positive before 1970', () => {
    const t = timestampFromMicros(-1_500_000n);
    expect(t.seconds).toBe(-2n);
    expect(t.nanos).toBe(500_000_000);
    expect(timestampFromMicros('0')).toMatchObject({ seconds: 0n, nanos: 0 });
  });
});
