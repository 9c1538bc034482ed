import { describe, expect, it } from '@jest/globals';
import { profileMessages, validateProfile, withWebsiteScheme } from './profile-validation';

describe('withWebsiteScheme', () => {
  it('gives an address typed without its scheme https://', () => {
    expect(withWebsiteScheme('example.com/ben')).toBe('https://example.com/ben');
    expect(withWebsiteScheme('  www.example.org  ')).toBe('https://www.example.org');
    expect(withWebsiteScheme('example.com:8080/a?b=c#d')).toBe('https://example.com:8080/a?b=c#d');
  });

  it('leaves an address with a scheme, an empty field and what is not an address alone', () => {
    expect(withWebsiteScheme('http://example.com')).toBe('http://example.com');
    expect(withWebsiteScheme('ftp://files.example.com')).toBe('ftp://files.example.com');
    expect(withWebsiteScheme('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(withWebsiteScheme('')).toBe('');
    expect(withWebsiteScheme('my site')).toBe('my site');
    expect(withWebsiteScheme('localhost')).toBe('localhost');
  });

  it('makes a schemeless address valid and keeps refusing the rest', () => {
    const values = { displayName: 'Ben Shahn', bio: '', location: '', website: '' };
    expect(validateProfile({ ...values, website: withWebsiteScheme('example.com/ben') })).toEqual({});
    expect(validateProfile({ ...values, website: withWebsiteScheme('ftp://files.example.com') })).toEqual({ website: profileMessages.website });
  });
});
