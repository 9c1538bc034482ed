import { describe, expect, it } from '@jest/globals';
import { forwardTarget } from './forward-target.js';

describe('forwardTarget', () => {
  it('keeps ordinary paths and queries', () => {
    expect(forwardTarget('/api/auth/me')).toEqual({ path: '/api/auth/me', search: '' });
    expect(forwardTarget('/api/search?q=a%20b&limit=10')).toEqual({ path: '/api/search', search: '?q=a%20b&limit=10' });
    expect(forwardTarget('/api/users/%C3%A9/profile')).toEqual({ path: '/api/users/%C3%A9/profile', search: '' });
  });

  it.each(['/api/auth/../../metrics', '/api/auth/%2e%2e/x', '/api/./auth/me', '/api/auth/.%2E/x', '/api/auth/..%2f..%2fmetrics', '/api/auth/x%5c..%5cy', '/api\\auth', '//evil.example/api/x', '/api/%zz'])(
    'refuses %s',
    (url) => {
      expect(forwardTarget(url)).toBeNull();
    },
  );

  it('allows dots inside segments', () => {
    expect(forwardTarget('/api/media/clip.v2.mp4')?.path).toBe('/api/media/clip.v2.mp4');
    expect(forwardTarget('/api/x/...')?.path).toBe('/api/x/...');
  });
});
