import { describe, expect, it } from '@jest/globals';
import { isValidEmail, validateLogin, validateRegistration } from './validation';

describe('auth validation', () => {
  it('accepts the minimum lengths', () => {
    expect(validateLogin({ login: 'a', password: '123456' })).toEqual({});
    expect(validateRegistration({ displayName: 'Al', username: 'abc', email: 'a@b.co', password: '123456' })).toEqual({});
  });

  it('tells valid e-mail addresses from invalid ones', () => {
    for (const ok of ['ada@example.com', 'a.b+c@sub.example.org', "o'brien@example.ie"]) expect(isValidEmail(ok)).toBe(true);
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'a b@example.com', 'ada..x@example.com']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
});
