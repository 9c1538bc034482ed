import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { ROUTES } from '../src/routes/route-table.js';
import { type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { FakeAuthResponder, type FakeSession, openTestBus, type TestBus } from './support/test-bus.js';

/**
 * The anonymous column of the authorization matrix, for every route of the product: what a caller
 * without a session (no token, or one that is invalid or expired) gets through the gateway.
 * Signed-out people reach the sign-in screen, the invitation page, the embed player and what a
 * shared link's preview shows (a published timeline that is not private, its media and counts, its
 * creator's name and picture), and nothing else (gateway/README.md, "Signed-out callers"). `open` routes
 * reach their service, which decides object by object (each service's matrix: a private or draft
 * timeline is 404 to them); every other route is 401 at the gateway and never reaches a service.
 *
 * The routes are read from the merged API description (frontend/src/api/openapi.json, checked
 * against the services by test/contracts/openapi.test.ts): a route without a row here fails.
 */
type Anonymous = 'open' | 401;

const ANONYMOUS: Record<string, Anonymous> = {
  // the sign-in screen
  'POST /api/auth/login': 'open',
  'POST /api/auth/register': 'open',
  'POST /api/auth/password/forgot': 'open',
  'POST /api/auth/password/reset': 'open',
  'PUT /api/auth/password': 401,
  'PUT /api/auth/email': 401,
  'POST /api/auth/email/confirm': 'open',
  'GET /api/auth/sessions': 401,
  'DELETE /api/auth/sessions': 401,
  'DELETE /api/auth/sessions/{id}': 401,
  'POST /api/auth/logout': 401,
  'GET /api/auth/me': 401,
  'PUT /api/auth/profile': 401,
  // two-step sign-in: the code after a right password and a passkey alone are signed-out steps; the settings are not
  'POST /api/auth/login/second-step': 'open',
  'POST /api/auth/passkeys/sign-in-options': 'open',
  'POST /api/auth/passkeys/sign-in': 'open',
  'GET /api/auth/two-step': 401,
  'POST /api/auth/two-step/totp/setup': 401,
  'POST /api/auth/two-step/totp/confirm': 401,
  'POST /api/auth/two-step/totp/disable': 401,
  'POST /api/auth/two-step/recovery-codes': 401,
  'GET /api/auth/passkeys': 401,
  'POST /api/auth/passkeys': 401,
  'POST /api/auth/passkeys/registration-options': 401,
  'POST /api/auth/passkeys/confirm-options': 401,
  'PATCH /api/auth/passkeys/{id}': 401,
  'POST /api/auth/passkeys/{id}/remove': 401,
  // deleting the account is for its signed-in owner; cancelling it is a step of signing in
  'POST /api/auth/account/deletion': 401,
  'POST /api/auth/account/deletion/cancel': 'open',
  // people
  'GET /api/users/{id}/profile': 401,
  'GET /api/users/{id}/avatar': 'open',
  'GET /api/users/{id}/timelines': 401,
  'GET /api/users/{id}/activity': 401,
  'GET /api/users/{id}/followers': 401,
  'GET /api/users/{id}/following': 401,
  'GET /api/users/{id}/following-list': 401,
  'POST /api/users/{id}/follow': 401,
  'DELETE /api/users/{id}/follow': 401,
  // timelines: one published timeline that is not private, for the embed player and a preview
  'GET /api/timelines': 401,
  'POST /api/timelines': 401,
  'GET /api/my-timelines': 401,
  'GET /api/timelines/{id}': 'open',
  'PATCH /api/timelines/{id}': 401,
  'DELETE /api/timelines/{id}': 401,
  'POST /api/timelines/{id}/views': 'open',
  'POST /api/timelines/{id}/shares': 401,
  'POST /api/timelines/{id}/downloads': 401,
  'GET /api/timelines/{id}/analytics': 401,
  'GET /api/timelines/{id}/watch-position': 401,
  'PUT /api/timelines/{id}/watch-position': 401,
  'DELETE /api/timelines/{id}/watch-position': 401,
  'GET /api/timelines/{id}/collaborators': 401,
  'DELETE /api/timelines/{id}/collaborators/{userId}': 401,
  'POST /api/timelines/{id}/transfer-ownership': 401,
  'POST /api/timelines/{id}/invite': 401,
  'GET /api/timelines/{id}/invitations': 401,
  // the invitation page: read and decline without an account, accept with one
  'GET /api/invitations/{token}': 'open',
  'POST /api/invitations/{token}/decline': 'open',
  'POST /api/invitations/{token}/accept': 401,
  'DELETE /api/invitations/{id}': 401,
  'POST /api/invitations/{id}/resend': 401,
  // the feed, posts, likes, comments, bookmarks, collections, reports
  'GET /api/feed': 401,
  'GET /api/posts': 401,
  'POST /api/posts': 401,
  'GET /api/posts/{id}': 401,
  'PUT /api/posts/{id}': 401,
  'DELETE /api/posts/{id}': 401,
  'GET /api/posts/{id}/comments': 401,
  'POST /api/posts/{id}/comments': 401,
  'POST /api/posts/{id}/like': 401,
  'DELETE /api/posts/{id}/like': 401,
  'GET /api/posts/{id}/liked': 401,
  'POST /api/posts/{id}/bookmark': 401,
  'DELETE /api/posts/{id}/bookmark': 401,
  'GET /api/posts/{id}/bookmarked': 401,
  'POST /api/reports': 401,
  'GET /api/timelines/{id}/comments': 401,
  'POST /api/timelines/{id}/comments': 401,
  'POST /api/timelines/{id}/like': 401,
  'DELETE /api/timelines/{id}/like': 401,
  'GET /api/timelines/{id}/liked': 401,
  'POST /api/timelines/{id}/bookmark': 401,
  'DELETE /api/timelines/{id}/bookmark': 401,
  'GET /api/timelines/{id}/bookmarked': 401,
  'GET /api/timelines/{id}/collections': 401,
  'GET /api/bookmarks': 401,
  'GET /api/collections': 401,
  'POST /api/collections': 401,
  'GET /api/collections/{id}': 401,
  'PUT /api/collections/{id}': 401,
  'DELETE /api/collections/{id}': 401,
  'GET /api/collections/{id}/timelines': 401,
  'POST /api/collections/{id}/timelines': 401,
  'PUT /api/collections/{id}/timelines/order': 401,
  'DELETE /api/collections/{id}/timelines/{timelineId}': 401,
  'GET /api/videos/{id}/liked': 401,
  'POST /api/videos/{id}/like': 401,
  'DELETE /api/videos/{id}/like': 401,
  'GET /api/videos/{id}/comments': 401,
  'POST /api/videos/{id}/comments': 401,
  'DELETE /api/videos/{id}/comments/{commentId}': 401,
  'POST /api/videos/{id}/comments/{commentId}/replies': 401,
  // notifications
  'GET /api/notifications': 401,
  'GET /api/notifications/unread-count': 401,
  'POST /api/notifications/{id}/read': 401,
  'POST /api/notifications/read-all': 401,
  'GET /api/notifications/preferences': 401,
  'PUT /api/notifications/preferences': 401,
  'GET /api/notifications/push-key': 401,
  'POST /api/notifications/push-subscriptions': 401,
  'DELETE /api/notifications/push-subscriptions': 401,
  // search
  'GET /api/search/enhanced': 401,
  'GET /api/search/history': 401,
  'POST /api/search/history': 401,
  'DELETE /api/search/history': 401,
  'DELETE /api/search/history/{id}': 401,
  'GET /api/discover/popular/timeline': 401,
  'GET /api/hashtags/trending': 401,
  // media: the timeline's list, and the files a video or img element or a download link loads
  // by address, without the bearer header (a signed access token or a visible timeline opens them)
  'GET /api/timelines/{id}/videos': 'open',
  'POST /api/timelines/{id}/videos': 401,
  'POST /api/timelines/{id}/videos/reorder': 401,
  'POST /api/timelines/{id}/videos/order-by-timestamp': 401,
  'GET /api/timelines/{id}/media': 401,
  'POST /api/timelines/{id}/media': 401,
  'GET /api/timelines/{id}/media/missing-alt-text': 401,
  'POST /api/timelines/{id}/export': 401,
  'GET /api/exports/{id}': 401,
  'GET /api/exports/{id}/file': 'open',
  'GET /api/videos/{id}/stream': 'open',
  'GET /api/videos/{id}/thumbnail': 'open',
  'GET /api/videos/{id}/hls/{file}': 'open',
  'GET /api/videos/{id}/hls/{rendition}/{file}': 'open',
  'PATCH /api/videos/{id}/title': 401,
  'PUT /api/videos/{id}/alt-text': 401,
  'POST /api/videos/{id}/alt-text/later': 401,
  'PATCH /api/videos/{id}/sensitive': 401,
  'DELETE /api/videos/{id}': 401,
  'GET /api/media/{id}/file': 'open',
  'POST /api/media/avatar': 401,
  'GET /api/media/storage': 401,
  'OPTIONS /api/uploads': 401,
  'POST /api/uploads': 401,
  'HEAD /api/uploads/{id}': 401,
  'PATCH /api/uploads/{id}': 401,
  'DELETE /api/uploads/{id}': 401,
  // safety: follow requests, blocks, mutes and muted words are a signed-in person's own
  'GET /api/blocks': 401,
  'GET /api/follow-requests': 401,
  'GET /api/follow-requests/count': 401,
  'POST /api/follow-requests/{userId}/approve': 401,
  'POST /api/follow-requests/{userId}/decline': 401,
  'GET /api/muted-words': 401,
  'POST /api/muted-words': 401,
  'DELETE /api/muted-words/{wordId}': 401,
  'GET /api/mutes': 401,
  'DELETE /api/users/{id}/block': 401,
  'POST /api/users/{id}/block': 401,
  'DELETE /api/users/{id}/mute': 401,
  'GET /api/users/{id}/mute': 401,
  'POST /api/users/{id}/mute': 401,
  // comment controls: settings, held comments, approval and pins are for the item's moderators
  'GET /api/posts/{id}/comment-settings': 401,
  'PUT /api/posts/{id}/comment-settings': 401,
  'DELETE /api/posts/{id}/comments/{commentId}': 401,
  'POST /api/posts/{id}/comments/{commentId}/approve': 401,
  'DELETE /api/posts/{id}/comments/{commentId}/pin': 401,
  'PUT /api/posts/{id}/comments/{commentId}/pin': 401,
  'GET /api/posts/{id}/held-comments': 401,
  'GET /api/timelines/{id}/comment-settings': 401,
  'PUT /api/timelines/{id}/comment-settings': 401,
  'DELETE /api/timelines/{id}/comments/{commentId}': 401,
  'POST /api/timelines/{id}/comments/{commentId}/approve': 401,
  'DELETE /api/timelines/{id}/comments/{commentId}/pin': 401,
  'PUT /api/timelines/{id}/comments/{commentId}/pin': 401,
  'GET /api/timelines/{id}/held-comments': 401,
  'POST /api/videos/{id}/comments/{commentId}/approve': 401,
  'DELETE /api/videos/{id}/comments/{commentId}/pin': 401,
  'PUT /api/videos/{id}/comments/{commentId}/pin': 401,
  // the moderation desk (staff only) and a person's own moderation notices
  'GET /api/moderation-notices': 401,
  'POST /api/moderation-notices/{actionId}/appeal': 401,
  'POST /api/moderation/appeals/{id}/decision': 401,
  'GET /api/moderation/audit': 401,
  'POST /api/moderation/items/{type}/{id}/decision': 401,
  'GET /api/moderation/queue': 401,
  'GET /api/moderation/role': 401,
  'POST /api/moderation/users/{id}/lift': 401,
  'POST /api/moderation/users/{id}/suspension': 401,
  // captions: the list and each WebVTT file open as the video does (its service decides); changes are signed-in
  'GET /api/videos/{id}/captions': 'open',
  'POST /api/videos/{id}/captions': 401,
  'DELETE /api/videos/{id}/captions/{language}': 401,
  'GET /api/videos/{id}/captions/{language}': 'open',
  // a person's data export: its file opens by its signed link alone (as a timeline export's does)
  'GET /api/account/data-exports': 401,
  'POST /api/account/data-exports': 401,
  'GET /api/account/data-exports/{id}/file': 'open',
  // the rest: viewing preferences, leaving a team, a comment's further replies
  'GET /api/auth/preferences': 401,
  'PUT /api/auth/preferences': 401,
  'POST /api/timelines/{id}/leave': 401,
  'GET /api/videos/{id}/comments/{commentId}/replies': 401,
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const document = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../frontend/src/api/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
const operations = Object.entries(document.paths).flatMap(([route, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${route}`));

const concrete = (route: string) => route.replace(/\{[^}]+\}/g, (name) => (name === '{file}' ? 'index.m3u8' : name === '{rendition}' ? '720p' : randomUUID()));

describe('who may call each route without signing in', () => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  let auth: FakeAuthResponder;
  let session: FakeSession;
  let reached = 0;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwanonymous');
    upstream = await startFakeUpstream(SECRET);
    upstream.app.server.on('request', (req: { url?: string }) => {
      if (req.url?.startsWith('/api/')) reached++;
    });
    auth = await new FakeAuthResponder(bus.services).start();
    session = auth.signIn();
    gateway = await startGateway({
      bus: bus.gateway,
      services: { auth: upstream.url },
      routes: ROUTES,
      env: { RATE_LIMIT_MAX: '100000', AUTH_RATE_LIMIT_MAX: '100000', ANONYMOUS_WRITE_LIMIT_MAX: '100000', CONTENT_RATE_LIMIT_MAX: '100000' },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await auth?.stop();
    await bus?.close();
  });

  it('has a row for every route of the API, and none for a route that is gone', () => {
    expect(operations.filter((op) => !(op in ANONYMOUS))).toEqual([]);
    expect(Object.keys(ANONYMOUS).filter((op) => !operations.includes(op))).toEqual([]);
  });

  const call = (operation: string, headers: Record<string, string> = {}) => {
    const [method, route] = operation.split(' ') as [string, string];
    const req = request(gateway.url)[method.toLowerCase() as 'get'](concrete(route)).set(headers);
    return ['POST', 'PUT', 'PATCH'].includes(method) ? req.set('content-type', 'application/json').send('{}') : req;
  };

  describe.each([
    ['no token', {}],
    ['an invalid or expired token', { authorization: `Bearer ${'x'.repeat(64)}` }],
  ])('with %s', (_label, headers: Record<string, string>) => {
    it.each(operations)('%s', async (operation) => {
      const before = reached;
      const response = await call(operation, headers);
      if (ANONYMOUS[operation] === 'open') {
        // The service answers (here a stand-in that echoes), and is told nobody is signed in.
        expect(response.status).toBe(200);
        expect(reached).toBe(before + 1);
        if (!operation.startsWith('HEAD ')) expect((response.body as { identity: { identity?: { userId?: string } } }).identity.identity?.userId).toBeUndefined();
      } else {
        expect(response.status).toBe(401);
        expect(reached).toBe(before);
        if (!operation.startsWith('HEAD ')) expect(response.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required' });
      }
    });
  });

  it('lets a signed-in caller reach every route', async () => {
    for (const operation of operations) {
      const before = reached;
      const response = await call(operation, { authorization: `Bearer ${session.token}` });
      expect([operation, response.status]).toEqual([operation, 200]);
      expect(reached).toBe(before + 1);
    }
  });

  it('answers an anonymous HEAD as its GET', async () => {
    expect((await request(gateway.url).head(`/api/videos/${randomUUID()}/stream`)).status).toBe(200);
    expect((await request(gateway.url).head('/api/feed')).status).toBe(401);
  });
});
