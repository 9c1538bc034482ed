import { describe, expect, it } from '@jest/globals';
import { originAllowed } from './origin-check.js';

describe('originAllowed', () => {
  it('accepts pages of the same host when no public origin is configured', () => {
    expect(originAllowed('http://localhost:8080', 'localhost:8080', undefined)).toBe(true);
    expect(originAllowed('http://evil.example', 'localhost:8080', undefined)).toBe(false);
    expect(originAllowed('http://localhost:9999', 'localhost:8080', undefined)).toBe(false);
  });

  it('accepts only the public origin when configured', () => {
    expect(originAllowed('https://app.example', 'internal:8080', 'https://app.example')).toBe(true);
    expect(originAllowed('http://app.example', 'app.example', 'https://app.example')).toBe(false);
  });

  it('refuses opaque and malformed origins, lets non-browser clients through', () => {
    expect(originAllowed('null', 'localhost', undefined)).toBe(false);
    expect(originAllowed('::', 'localhost', undefined)).toBe(false);
    expect(originAllowed(undefined, 'localhost', undefined)).toBe(true);
  });
});
