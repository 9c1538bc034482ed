import { describe, expect, it } from '@jest/globals';
import { classifyGesture, createGate } from './gestures';

describe('player gestures (spec 001, section 9)', () => {
  it.each<[number, number, string]>([
    [0, 0, 'tap'],
    [-49, 30, 'tap'],
    [-50, 0, 'next-video'],
    [50, 10, 'previous-video'],
    [10, -50, 'next-timeline'],
    [-20, 60, 'previous-timeline'],
    [-80, 70, 'next-video'],
  ])('dx %s, dy %s → %s', (dx, dy, gesture) => {
    expect(classifyGesture(dx, dy)).toBe(gesture);
  });

  it('lets one call through per window', () => {
    let now = 1000;
    const gate = createGate(300, () => now);
    expect(gate()).toBe(true);
    now += 299;
    expect(gate()).toBe(false);
    now += 1;
    expect(gate()).toBe(true);
  });
});
