import { describe, expect, it } from '@jest/globals';
import { defaultProcessingConcurrency } from './worker-concurrency.js';

const GiB = 1024 ** 3;

describe('defaultProcessingConcurrency', () => {
  it('runs one job at a time on two cores or fewer', () => {
    expect(defaultProcessingConcurrency({ cores: 1, memoryBytes: 8 * GiB })).toBe(1);
    expect(defaultProcessingConcurrency({ cores: 2, memoryBytes: 24 * GiB })).toBe(1);
  });

  it('uses half the cores on bigger machines, as far as half the memory allows, at most 8', () => {
    expect(defaultProcessingConcurrency({ cores: 8, memoryBytes: 32 * GiB })).toBe(4);
    expect(defaultProcessingConcurrency({ cores: 8, memoryBytes: 4 * GiB })).toBe(2);
    expect(defaultProcessingConcurrency({ cores: 64, memoryBytes: 256 * GiB })).toBe(8);
    expect(defaultProcessingConcurrency({ cores: 16, memoryBytes: 1 * GiB })).toBe(1);
  });

  it('reads this machine when asked nothing', () => {
    expect(defaultProcessingConcurrency()).toBeGreaterThanOrEqual(1);
  });
});
