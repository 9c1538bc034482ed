import { describe, expect, it } from '@jest/globals';
import { assertName, assertSubject, subjectMatches } from './subjects.js';

describe('subjectMatches', () => {
  it.each([
    ['auth.user.registered.v1', 'auth.user.registered.v1', true],
    ['auth.user.registered.v1', 'auth.user.registered.v2', false],
    ['auth.*.registered.v1', 'auth.user.registered.v1', true],
    ['auth.*', 'auth.user.registered.v1', false],
    ['auth.>', 'auth.user.registered.v1', true],
    ['auth.>', 'auth', false],
    ['>', 'realtime.timeline.x', true],
    ['auth.user', 'auth.user.registered', false],
  ])('%s matches %s: %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});

describe('subject and name checks', () => {
  it('accepts wildcards only where allowed', () => {
    expect(() => assertSubject('auth.user.>', true)).not.toThrow();
    expect(() => assertSubject('auth.user.>', false)).toThrow(/Invalid/);
    expect(() => assertSubject('auth.>.user', true)).toThrow(/Invalid/);
    expect(() => assertSubject('auth..user', true)).toThrow(/Invalid/);
    expect(() => assertSubject('auth user', false)).toThrow(/Invalid/);
  });

  it('keeps consumer names to safe characters', () => {
    expect(() => assertName('Durable name', 'notifications-v2')).not.toThrow();
    expect(() => assertName('Durable name', 'a.b')).toThrow(/letters, digits/);
  });
});
