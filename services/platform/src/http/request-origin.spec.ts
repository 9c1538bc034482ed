import { describe, expect, it } from '@jest/globals';
import { requestOrigin } from './request-origin.js';

const request = (headers: Record<string, string>, protocol: 'http' | 'https' = 'http') => ({ headers, protocol });

describe('requestOrigin', () => {
  it('is the address the gateway was reached at, from its forwarded headers', () => {
    expect(requestOrigin(request({ host: '127.0.0.1:3002', 'x-forwarded-host': '127.0.0.1:8080', 'x-forwarded-proto': 'http' }))).toBe('http://127.0.0.1:8080');
    expect(requestOrigin(request({ 'x-forwarded-host': 'app.example', 'x-forwarded-proto': 'https' }))).toBe('https://app.example');
    expect(requestOrigin(request({ 'x-forwarded-host': '[::1]:8080', 'x-forwarded-proto': 'http' }))).toBe('http://[::1]:8080');
  });

  it('is the request’s own host when called directly', () => {
    expect(requestOrigin(request({ host: 'localhost:8080' }))).toBe('http://localhost:8080');
  });

  it('is nothing for a host that is not one (a path, a user, spaces) or another scheme', () => {
    expect(requestOrigin(request({ 'x-forwarded-host': 'evil.example/phish', 'x-forwarded-proto': 'http' }))).toBeUndefined();
    expect(requestOrigin(request({ 'x-forwarded-host': 'me@evil.example', 'x-forwarded-proto': 'http' }))).toBeUndefined();
    expect(requestOrigin(request({ 'x-forwarded-host': 'a b', 'x-forwarded-proto': 'http' }))).toBeUndefined();
    expect(requestOrigin(request({ 'x-forwarded-host': 'app.example', 'x-forwarded-proto': 'javascript' }))).toBeUndefined();
    expect(requestOrigin(request({}))).toBeUndefined();
  });
});
