import { describe, expect, it } from '@jest/globals';
import { ROUTES, RouteTable } from './route-table.js';

describe('RouteTable', () => {
  const table = new RouteTable([
    { pattern: '/api/auth/*', service: 'auth' },
    { pattern: '/api/users/:id/profile', service: 'auth' },
    { pattern: '/api/users/*', service: 'social' },
    { pattern: '/api/timelines/:id/videos', service: 'media' },
    { pattern: '/api/timelines/*', service: 'timelines' },
    { pattern: '/api/timelines', service: 'timelines' },
  ]);

  it.each([
    ['/api/auth/login', 'auth', '/api/auth/*'],
    ['/api/auth/me', 'auth', '/api/auth/*'],
    ['/api/auth/sessions/current', 'auth', '/api/auth/*'],
    ['/api/users/42/profile', 'auth', '/api/users/:id/profile'],
    ['/api/users/42/followers', 'social', '/api/users/*'],
    ['/api/timelines', 'timelines', '/api/timelines'],
    ['/api/timelines/7', 'timelines', '/api/timelines/*'],
    ['/api/timelines/7/videos', 'media', '/api/timelines/:id/videos'],
    ['/api/timelines/7/videos/reorder', 'timelines', '/api/timelines/*'],
  ])('routes %s to %s', (path, service, pattern) => {
    expect(table.resolve(path)).toMatchObject({ service, pattern });
  });

  it.each(['/api/auth', '/api/auth/', '/api/unknown', '/api//auth/me', '/api/users', '/'])('has no owner for %s', (path) => {
    expect(table.resolve(path)).toBeNull();
  });

  it('picks the most specific entry whatever the order', () => {
    const reversed = new RouteTable([
      { pattern: '/api/*', service: 'fallback' },
      { pattern: '/api/users/:id/profile', service: 'auth' },
      { pattern: '/api/users/me/profile', service: 'me' },
    ]);
    expect(reversed.resolve('/api/users/me/profile')?.service).toBe('me');
    expect(reversed.resolve('/api/users/1/profile')?.service).toBe('auth');
    expect(reversed.resolve('/api/users/1')?.service).toBe('fallback');
  });

  it('rejects malformed and duplicate patterns', () => {
    expect(() => new RouteTable([{ pattern: 'api/x', service: 'a' }])).toThrow(/must start/);
    expect(() => new RouteTable([{ pattern: '/api/*/x', service: 'a' }])).toThrow(/last segment/);
    expect(() => new RouteTable([{ pattern: '/api/:a', service: 'a' }, { pattern: '/api/:b', service: 'b' }])).toThrow(/duplicates/);
  });

  it('lists the services it routes to', () => {
    expect(table.services()).toEqual(['auth', 'media', 'social', 'timelines']);
  });
});

describe('the product route table', () => {
  const table = new RouteTable(ROUTES);

  it.each([
    ['/api/auth/login', 'auth'],
    ['/api/auth/login/second-step', 'auth'],
    ['/api/auth/passkeys/sign-in', 'auth'],
    ['/api/auth/passkeys/3f1c/remove', 'auth'],
    ['/api/auth/me', 'auth'],
    ['/api/users/42/profile', 'auth'],
    ['/api/timelines', 'timelines'],
    ['/api/my-timelines', 'timelines'],
    ['/api/timelines/7', 'timelines'],
    ['/api/timelines/7/collaborators', 'timelines'],
    ['/api/timelines/7/collaborators/42', 'timelines'],
    ['/api/timelines/7/transfer-ownership', 'timelines'],
    ['/api/timelines/7/leave', 'timelines'],
    ['/api/timelines/7/invite', 'timelines'],
    ['/api/timelines/7/invitations', 'timelines'],
    ['/api/timelines/7/analytics', 'timelines'],
    ['/api/timelines/7/views', 'timelines'],
    ['/api/timelines/7/shares', 'timelines'],
    ['/api/timelines/7/downloads', 'timelines'],
    ['/api/invitations/abc', 'timelines'],
    ['/api/invitations/abc/accept', 'timelines'],
    ['/api/invitations/abc/decline', 'timelines'],
    ['/api/invitations/abc/resend', 'timelines'],
    ['/api/feed', 'social'],
    ['/api/posts', 'social'],
    ['/api/posts/3', 'social'],
    ['/api/posts/3/comments', 'social'],
    ['/api/posts/3/like', 'social'],
    ['/api/posts/3/liked', 'social'],
    ['/api/posts/3/bookmark', 'social'],
    ['/api/posts/3/bookmarked', 'social'],
    ['/api/reports', 'social'],
    ['/api/moderation/queue', 'social'],
    ['/api/moderation/items/post/3/decision', 'social'],
    ['/api/moderation-notices', 'social'],
    ['/api/moderation-notices/5/appeal', 'social'],
    ['/api/timelines/7/comments', 'social'],
    ['/api/timelines/7/like', 'social'],
    ['/api/timelines/7/liked', 'social'],
    ['/api/timelines/7/bookmark', 'social'],
    ['/api/timelines/7/bookmarked', 'social'],
    ['/api/users/42/follow', 'social'],
    ['/api/users/42/following', 'social'],
    ['/api/users/42/followers', 'social'],
    ['/api/users/42/following-list', 'social'],
    ['/api/follow-requests', 'social'],
    ['/api/follow-requests/count', 'social'],
    ['/api/follow-requests/42/approve', 'social'],
    ['/api/follow-requests/42/decline', 'social'],
    ['/api/users/42/timelines', 'social'],
    ['/api/users/42/activity', 'social'],
    ['/api/users/42/block', 'social'],
    ['/api/users/42/mute', 'social'],
    ['/api/blocks', 'social'],
    ['/api/mutes', 'social'],
    ['/api/muted-words', 'social'],
    ['/api/muted-words/42', 'social'],
    ['/api/collections', 'social'],
    ['/api/collections/5', 'social'],
    ['/api/collections/5/timelines', 'social'],
    ['/api/collections/5/timelines/order', 'social'],
    ['/api/collections/5/timelines/7', 'social'],
    ['/api/timelines/7/collections', 'social'],
    ['/api/bookmarks', 'social'],
    ['/api/videos/9/like', 'social'],
    ['/api/videos/9/liked', 'social'],
    ['/api/videos/9/comments', 'social'],
    ['/api/videos/9/comments/5', 'social'],
    ['/api/videos/9/comments/5/replies', 'social'],
    ['/api/videos/9/comments/5/approve', 'social'],
    ['/api/videos/9/comments/5/pin', 'social'],
    ['/api/timelines/7/comment-settings', 'social'],
    ['/api/timelines/7/held-comments', 'social'],
    ['/api/timelines/7/comments/9', 'social'],
    ['/api/timelines/7/comments/9/approve', 'social'],
    ['/api/timelines/7/comments/9/pin', 'social'],
    ['/api/posts/3/comment-settings', 'social'],
    ['/api/posts/3/held-comments', 'social'],
    ['/api/posts/3/comments/4', 'social'],
    ['/api/posts/3/comments/4/approve', 'social'],
    ['/api/posts/3/comments/4/pin', 'social'],
    ['/api/uploads', 'media'],
    ['/api/uploads/0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11', 'media'],
    ['/api/timelines/7/videos', 'media'],
    ['/api/timelines/7/videos/reorder', 'media'],
    ['/api/timelines/7/videos/order-by-timestamp', 'media'],
    ['/api/timelines/7/media', 'media'],
    ['/api/videos/9', 'media'],
    ['/api/videos/9/stream', 'media'],
    ['/api/videos/9/hls/master.m3u8', 'media'],
    ['/api/videos/9/captions', 'media'],
    ['/api/videos/9/captions/pt-BR', 'media'],
    ['/api/media/9/file', 'media'],
    ['/api/timelines/7/export', 'media'],
    ['/api/exports/9/file', 'media'],
    ['/api/account/data-exports', 'media'],
    ['/api/account/data-exports/9/file', 'media'],
    ['/api/notifications', 'notifications'],
    ['/api/notifications/unread-count', 'notifications'],
    ['/api/notifications/0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11/read', 'notifications'],
    ['/api/notifications/read-all', 'notifications'],
    ['/api/notifications/preferences', 'notifications'],
    ['/api/notifications/push-key', 'notifications'],
    ['/api/notifications/push-subscriptions', 'notifications'],
    ['/api/search/enhanced', 'search'],
    ['/api/search/history', 'search'],
    ['/api/search/history/0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11', 'search'],
    ['/api/discover/popular/timeline', 'search'],
    ['/api/hashtags/trending', 'search'],
  ])('routes %s to %s', (path, service) => {
    expect(table.resolve(path)?.service).toBe(service);
  });

  it.each([
    '/api/timelines/7/comments/9/extra',
    '/api/timelines/7/unknown',
    '/api/timelines/7/collaborators/42/extra',
    '/api/invitations',
    '/api/invitations/abc/accept/now',
    '/api/my-timelines/7',
    '/api/timelines/7/media/9',
    '/api/videos',
    '/api/media',
    '/api/exports',
    '/api/timelines/7/export/9',
    '/api/users/42/follow/9',
    '/api/users/42/timelines/9',
    '/api/users/42/activity/9',
    '/api/posts/3/comments/4/replies',
    '/api/feed/x',
    '/api/reports/1',
    '/api/collections/5/timelines/7/extra',
    '/api/collections/5/unknown',
    '/api/timelines/7/collections/5',
    '/api/bookmarks/3',
  ])('has no owner for %s', (path) => {
    expect(table.resolve(path)).toBeNull();
  });

  it('routes a collection\'s order to its literal entry, other timelines to :timelineId', () => {
    expect(table.resolve('/api/collections/5/timelines/order')?.pattern).toBe('/api/collections/:id/timelines/order');
    expect(table.resolve('/api/collections/5/timelines/7')?.pattern).toBe('/api/collections/:id/timelines/:timelineId');
  });

  it('routes to auth, media, notifications, search, social and timelines', () => {
    expect(table.services()).toEqual(['auth', 'media', 'notifications', 'search', 'social', 'timelines']);
  });
});
