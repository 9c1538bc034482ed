import { afterEach, describe, expect, it } from '@jest/globals';
import { rememberReturnPath, takeReturnPath } from './return-path';

afterEach(() => sessionStorage.clear());

describe('return path after sign-in', () => {
  it('is followed once', () => {
    rememberReturnPath('/invite/abc');
    expect(takeReturnPath()).toBe('/invite/abc');
    expect(takeReturnPath()).toBeNull();
  });

  it('only ever points at this site', () => {
    for (const path of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'invite/abc']) {
      rememberReturnPath(path);
      expect(takeReturnPath()).toBeNull();
    }
  });
});
