import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type As, type SocialHarness, startHarness, type World } from './harness.js';
import { commentControlRoutes } from './comment-control-routes.js';
import { moderationRoutes } from './moderation-routes.js';

/**
 * Authorization and bad-input matrix for every route of the social service. The route list is
 * read from the service's own OpenAPI document, so a new route without a row here fails the
 * suite. Access to a timeline is the timelines service's answer (a stand-in encoding a fixed
 * policy, see harness.ts); each caller is tried on a timeline it can see and one it cannot.
 */
type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
type Who = 'anonymous' | 'stranger' | 'collaborator';
type Visibility = 'canView' | 'cannotView';

interface Row {
  method: Method;
  /** OpenAPI path template. */
  route: string;
  path: (timelineId: string) => string;
  body?: () => Record<string, unknown>;
  expected: Record<Who, Record<Visibility, number>>;
  /** The 404 message of a hidden target; default 'Timeline not found'. */
  notFound?: string;
  /** Bad requests by a caller who may comment: each must answer 4xx with the message, and change nothing. */
  badInput?: Array<{ body?: unknown; path?: (timelineId: string) => string; message: string | RegExp; status?: number }>;
}

const long = (n: number) => 'a'.repeat(n);
const comments = (id: string) => `/api/timelines/${id}/comments`;

/** A video on each timeline of the world, and a comment on it by the owner (set up in beforeAll). */
const videoOn = new Map<string, string>();
const commentOn = new Map<string, string>();
const video = (timelineId: string) => `/api/videos/${videoOn.get(timelineId) ?? timelineId}`;
const videoComment = (timelineId: string) => `${video(timelineId)}/comments/${commentOn.get(timelineId) ?? timelineId}`;
const VIDEO_NOT_FOUND = 'Video not found';
const ELSEWHERE = 'elsewhere';

const readable = { anonymous: { canView: 200, cannotView: 404 }, stranger: { canView: 200, cannotView: 404 }, collaborator: { canView: 200, cannotView: 404 } };
const writable = (ok: number) => ({ anonymous: { canView: 401, cannotView: 401 }, stranger: { canView: ok, cannotView: 404 }, collaborator: { canView: ok, cannotView: 404 } });
const reactionRows = (noun: 'like' | 'bookmark', state: 'liked' | 'bookmarked'): Row[] => [
  { method: 'get', route: `/api/timelines/{id}/${state}`, path: (id) => `/api/timelines/${id}/${state}`, expected: readable },
  { method: 'post', route: `/api/timelines/{id}/${noun}`, path: (id) => `/api/timelines/${id}/${noun}`, expected: writable(200) },
  { method: 'delete', route: `/api/timelines/{id}/${noun}`, path: (id) => `/api/timelines/${id}/${noun}`, expected: writable(200) },
];
const contentBadInput = [
  { body: {}, message: 'Comment cannot be empty' },
  { body: { content: '  ' }, message: 'Comment cannot be empty' },
  { body: { content: 42 }, message: 'Comment must be text' },
  { body: { content: long(2001) }, message: 'Comment must be at most 2000 characters' },
  { body: { content: 'hi', userId: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: userId' },
  { body: 'not json', message: /JSON/ },
];

const matrix: Row[] = [
  {
    method: 'get', route: '/api/timelines/{id}/comments', path: comments,
    expected: {
      anonymous: { canView: 200, cannotView: 404 },
      stranger: { canView: 200, cannotView: 404 },
      collaborator: { canView: 200, cannotView: 404 },
    },
    badInput: [
      { path: (id) => `${comments(id)}?limit=0`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?limit=101`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?limit=ten`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?limit=2.5`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${comments(id)}?cursor=not-a-cursor`, message: 'Invalid cursor' },
      { path: (id) => `${comments(id)}?cursor=${Buffer.from('["x",1]').toString('base64url')}`, message: 'Invalid cursor' },
      { path: (id) => `${comments(id)}?cursor=${long(201)}`, message: 'Invalid cursor' },
      { path: (id) => `${comments(id)}?sort=oldest`, message: 'Unknown field: sort' },
    ],
  },
  {
    method: 'post', route: '/api/timelines/{id}/comments', path: comments, body: () => ({ content: 'Nice one' }),
    expected: {
      anonymous: { canView: 401, cannotView: 401 },
      stranger: { canView: 201, cannotView: 404 },
      collaborator: { canView: 201, cannotView: 404 },
    },
    badInput: [
      { body: {}, message: 'Comment cannot be empty' },
      { body: { content: '' }, message: 'Comment cannot be empty' },
      { body: { content: '   \n\t ' }, message: 'Comment cannot be empty' },
      { body: { content: null }, message: 'Comment cannot be empty' },
      { body: { content: 42 }, message: 'Comment must be text' },
      { body: { content: ['a', 'b'] }, message: 'Comment must be text' },
      { body: { content: { text: 'hi' } }, message: 'Comment must be text' },
      { body: { content: long(2001) }, message: 'Comment must be at most 2000 characters' },
      { body: { content: 'hi', timestamp: -1 }, message: 'Timestamp must be a whole number of seconds' },
      { body: { content: 'hi', timestamp: 1.5 }, message: 'Timestamp must be a whole number of seconds' },
      { body: { content: 'hi', timestamp: '12' }, message: 'Timestamp must be a whole number of seconds' },
      { body: { content: 'hi', timestamp: 86_401 }, message: 'Timestamp must be at most 86400 seconds' },
      { body: { content: 'hi', userId: 42 }, message: 'userId must be a string' },
      { body: { content: 'hi', userName: { first: 'A' } }, message: 'userName must be a string' },
      { body: { content: 'hi', userName: long(201) }, message: 'userName must be at most 200 characters' },
      { body: { content: 'hi', userId: '00000000-0000-4000-8000-000000000000' }, message: 'You can only comment as yourself', status: 403 },
      { body: { content: 'hi', id: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: id' },
      { body: { content: 'hi', createdAt: '2020-01-01T00:00:00Z' }, message: 'Unknown field: createdAt' },
      { body: { content: 'hi', timelineId: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: timelineId' },
      { body: { content: 'hi', likesCount: 1000 }, message: 'Unknown field: likesCount' },
      { body: 'not json', message: /JSON/ },
      { body: { content: long(2 * 1024 * 1024) }, message: 'Request body is too large', status: 413 },
    ],
  },
  ...reactionRows('like', 'liked'),
  ...reactionRows('bookmark', 'bookmarked'),
  { method: 'get', route: '/api/videos/{id}/liked', path: (id) => `${video(id)}/liked`, notFound: VIDEO_NOT_FOUND, expected: readable },
  { method: 'post', route: '/api/videos/{id}/like', path: (id) => `${video(id)}/like`, notFound: VIDEO_NOT_FOUND, expected: writable(200) },
  { method: 'delete', route: '/api/videos/{id}/like', path: (id) => `${video(id)}/like`, notFound: VIDEO_NOT_FOUND, expected: writable(200) },
  {
    method: 'get', route: '/api/videos/{id}/comments', path: (id) => `${video(id)}/comments`, notFound: VIDEO_NOT_FOUND, expected: readable,
    badInput: [
      { path: (id) => `${video(id)}/comments?limit=0`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${video(id)}/comments?cursor=not-a-cursor`, message: 'Invalid cursor' },
      { path: (id) => `${video(id)}/comments?sort=newest`, message: 'Unknown field: sort' },
    ],
  },
  {
    method: 'post', route: '/api/videos/{id}/comments', path: (id) => `${video(id)}/comments`, body: () => ({ content: 'Nice shot' }), notFound: VIDEO_NOT_FOUND, expected: writable(201),
    badInput: [
      ...contentBadInput,
      { body: { content: 'hi', timelineId: '00000000-0000-4000-8000-000000000000' }, message: "timelineId must be the video's timeline" },
      { body: { content: 'hi', timelineId: 7 }, message: 'timelineId must be a string' },
    ],
  },
  {
    method: 'get', route: '/api/videos/{id}/comments/{commentId}/replies', path: (id) => `${videoComment(id)}/replies`, notFound: VIDEO_NOT_FOUND, expected: readable,
    badInput: [
      { path: (id) => `${videoComment(id)}/replies?limit=0`, message: 'Limit must be a whole number from 1 to 100' },
      { path: (id) => `${videoComment(id)}/replies?cursor=not-a-cursor`, message: 'Invalid cursor' },
      { path: (id) => `${video(id)}/comments/nope/replies`, message: 'Comment not found', status: 404 },
      { path: (id) => `${video(id)}/comments/${commentOn.get(ELSEWHERE)}/replies`, message: 'Comment not found', status: 404 },
    ],
  },
  {
    method: 'post', route: '/api/videos/{id}/comments/{commentId}/replies', path: (id) => `${videoComment(id)}/replies`, body: () => ({ content: 'Agreed' }), notFound: VIDEO_NOT_FOUND, expected: writable(201),
    badInput: [
      ...contentBadInput,
      { path: (id) => `${video(id)}/comments/00000000-0000-4000-8000-000000000000/replies`, body: { content: 'hi' }, message: 'Comment not found', status: 404 },
      { path: (id) => `${video(id)}/comments/nope/replies`, body: { content: 'hi' }, message: 'Comment not found', status: 404 },
      // A comment of another video (the public timeline's) is not found under this one.
      { path: (id) => `${video(id)}/comments/${commentOn.get(ELSEWHERE)}/replies`, body: { content: 'hi' }, message: 'Comment not found', status: 404 },
    ],
  },
  {
    // The comments set up are the owner's: nobody else may delete them.
    // The owner's comment: a stranger may not delete it, an editor of the timeline (the collaborator on the private one) may.
    method: 'delete', route: '/api/videos/{id}/comments/{commentId}', path: videoComment, notFound: VIDEO_NOT_FOUND,
    expected: { anonymous: { canView: 401, cannotView: 401 }, stranger: { canView: 403, cannotView: 404 }, collaborator: { canView: 204, cannotView: 404 } },
    badInput: [
      { path: (id) => `${video(id)}/comments/00000000-0000-4000-8000-000000000000`, message: 'Comment not found', status: 404 },
      { path: (id) => `${video(id)}/comments/nope`, message: 'Comment not found', status: 404 },
    ],
  },
];

/**
 * Routes about a person rather than a timeline (follows): each caller is tried on someone the
 * users read model knows, someone it does not, and themselves. Listed in the coverage check above.
 */
type UserTarget = 'known' | 'unknown' | 'self';
interface UserRow {
  method: Method;
  route: string;
  path: (userId: string) => string;
  expected: Record<'anonymous' | 'signedIn', Record<UserTarget, number>>;
  badInput?: Array<{ path: (userId: string) => string; message: string; status?: number }>;
}
const USER_NOT_FOUND = 'User not found';
const pageBadInput = (path: (userId: string) => string) => [
  { path: (id: string) => `${path(id)}?limit=0`, message: 'Limit must be a whole number from 1 to 100' },
  { path: (id: string) => `${path(id)}?limit=101`, message: 'Limit must be a whole number from 1 to 100' },
  { path: (id: string) => `${path(id)}?cursor=not-a-cursor`, message: 'Invalid cursor' },
  { path: (id: string) => `${path(id)}?cursor=${long(201)}`, message: 'Invalid cursor' },
  { path: (id: string) => `${path(id)}?sort=oldest`, message: 'Unknown field: sort' },
];
const userReadable = { anonymous: { known: 200, unknown: 404, self: 200 }, signedIn: { known: 200, unknown: 404, self: 200 } };
const userWritable = { anonymous: { known: 401, unknown: 401, self: 401 }, signedIn: { known: 200, unknown: 404, self: 400 } };
const followers = (id: string) => `/api/users/${id}/followers`;
const followingList = (id: string) => `/api/users/${id}/following-list`;
const userTimelines = (id: string) => `/api/users/${id}/timelines`;
const userActivity = (id: string) => `/api/users/${id}/activity`;
const userMatrix: UserRow[] = [
  { method: 'get', route: '/api/users/{id}/following', path: (id) => `/api/users/${id}/following`, expected: userReadable },
  { method: 'post', route: '/api/users/{id}/follow', path: (id) => `/api/users/${id}/follow`, expected: userWritable },
  { method: 'delete', route: '/api/users/{id}/follow', path: (id) => `/api/users/${id}/follow`, expected: userWritable },
  { method: 'get', route: '/api/users/{id}/followers', path: followers, expected: userReadable, badInput: pageBadInput(followers) },
  { method: 'get', route: '/api/users/{id}/following-list', path: followingList, expected: userReadable, badInput: pageBadInput(followingList) },
  { method: 'get', route: '/api/users/{id}/timelines', path: userTimelines, expected: userReadable, badInput: pageBadInput(userTimelines) },
  { method: 'get', route: '/api/users/{id}/activity', path: userActivity, expected: userReadable, badInput: pageBadInput(userActivity) },
];

/**
 * Routes about posts, the feed and reports: each caller (anonymous, the post's author, someone
 * else) is tried on an existing post (a fresh one per case, so a deletion cannot spoil the next)
 * and on one that does not exist. Routes without a post in the path ignore the target.
 */
type PostCaller = 'anonymous' | 'author' | 'other';
type PostTarget = 'post' | 'missing';
interface PostRow {
  method: Method;
  route: string;
  path: (postId: string) => string;
  body?: (postId: string) => Record<string, unknown>;
  expected: Record<PostCaller, Record<PostTarget, number>>;
  notFound?: string;
  badInput?: Array<{ body?: unknown; path?: (postId: string) => string; message: string | RegExp; status?: number }>;
}
const POST_NOT_FOUND = 'Post not found';
const anyTarget = (anonymous: number, signedIn: number) => ({
  anonymous: { post: anonymous, missing: anonymous }, author: { post: signedIn, missing: signedIn }, other: { post: signedIn, missing: signedIn },
});
const postReadable = { anonymous: { post: 200, missing: 404 }, author: { post: 200, missing: 404 }, other: { post: 200, missing: 404 } };
const postWritable = (ok: number) => ({ anonymous: { post: 401, missing: 401 }, author: { post: ok, missing: 404 }, other: { post: ok, missing: 404 } });
const authorOnly = (ok: number) => ({ anonymous: { post: 401, missing: 401 }, author: { post: ok, missing: 404 }, other: { post: 403, missing: 404 } });
const postBody = [
  { body: {}, message: 'Please enter something to share' },
  { body: { content: '  \n ' }, message: 'Please enter something to share' },
  { body: { content: null }, message: 'Please enter something to share' },
  { body: { content: 7 }, message: 'Content must be text' },
  { body: { content: ['a'] }, message: 'Content must be text' },
  { body: { content: long(5001) }, message: 'A post may be at most 5000 characters' },
  { body: { content: 'hi', userId: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: userId' },
  { body: { content: 'hi', likesCount: 99 }, message: 'Unknown field: likesCount' },
  { body: 'not json', message: /JSON/ },
];
const postPage = (path: (postId: string) => string) => [
  { path: (id: string) => `${path(id)}?limit=0`, message: 'Limit must be a whole number from 1 to 100' },
  { path: (id: string) => `${path(id)}?cursor=not-a-cursor`, message: 'Invalid cursor' },
  { path: (id: string) => `${path(id)}?cursor=${Buffer.from('["2026-02-30T00:00:00.000000Z","00000000-0000-4000-8000-000000000000"]').toString('base64url')}`, message: 'Invalid cursor' },
  { path: (id: string) => `${path(id)}?sort=oldest`, message: 'Unknown field: sort' },
];
const onPost = (suffix = '') => (id: string) => `/api/posts/${id}${suffix}`;
const postMatrix: PostRow[] = [
  { method: 'get', route: '/api/posts', path: () => '/api/posts', expected: anyTarget(200, 200), badInput: postPage(() => '/api/posts') },
  { method: 'post', route: '/api/posts', path: () => '/api/posts', body: () => ({ content: 'Hello #world' }), expected: anyTarget(401, 201), badInput: postBody },
  { method: 'get', route: '/api/posts/{id}', path: onPost(), expected: postReadable },
  { method: 'put', route: '/api/posts/{id}', path: onPost(), body: () => ({ content: 'Changed' }), expected: authorOnly(200), badInput: postBody },
  { method: 'delete', route: '/api/posts/{id}', path: onPost(), expected: authorOnly(204) },
  { method: 'get', route: '/api/posts/{id}/comments', path: onPost('/comments'), expected: postReadable, badInput: postPage(onPost('/comments')) },
  { method: 'post', route: '/api/posts/{id}/comments', path: onPost('/comments'), body: () => ({ content: 'Nice' }), expected: postWritable(201), badInput: contentBadInput },
  { method: 'get', route: '/api/posts/{id}/liked', path: onPost('/liked'), expected: postReadable },
  { method: 'post', route: '/api/posts/{id}/like', path: onPost('/like'), expected: postWritable(200) },
  { method: 'delete', route: '/api/posts/{id}/like', path: onPost('/like'), expected: postWritable(200) },
  { method: 'get', route: '/api/posts/{id}/bookmarked', path: onPost('/bookmarked'), expected: postReadable },
  { method: 'post', route: '/api/posts/{id}/bookmark', path: onPost('/bookmark'), expected: postWritable(200) },
  { method: 'delete', route: '/api/posts/{id}/bookmark', path: onPost('/bookmark'), expected: postWritable(200) },
  {
    method: 'get', route: '/api/feed', path: () => '/api/feed', expected: anyTarget(401, 200),
    badInput: [
      { path: () => '/api/feed?tab=popular', message: "Tab must be 'for-you' or 'following'" },
      { path: () => '/api/feed?limit=0', message: 'Limit must be a whole number from 1 to 50' },
      { path: () => '/api/feed?limit=51', message: 'Limit must be a whole number from 1 to 50' },
      { path: () => '/api/feed?cursor=nope', message: 'Invalid cursor' },
      { path: () => `/api/feed?cursor=${Buffer.from('["2026-01-01T00:00:00.000000Z",99999999999,"2026-01-01T00:00:00.000000Z","00000000-0000-4000-8000-000000000000"]').toString('base64url')}`, message: 'Invalid cursor' },
      { path: () => '/api/feed?tab=following&cursor=nope', message: 'Invalid cursor' },
      { path: () => '/api/feed?page=2', message: 'Unknown field: page' },
    ],
  },
  {
    method: 'post', route: '/api/reports', path: () => '/api/reports', body: (id) => ({ contentType: 'post', contentId: id, reason: 'spam' }),
    expected: { anonymous: { post: 401, missing: 401 }, author: { post: 201, missing: 404 }, other: { post: 201, missing: 404 } },
    badInput: [
      { body: {}, message: /contentType must be one of/ },
      { body: { contentType: 'user', contentId: '00000000-0000-4000-8000-000000000000', reason: 'spam' }, message: /contentType must be one of/ },
      { body: { contentType: 'post', contentId: 'x', reason: 'spam' }, message: 'contentId must be an id' },
      { body: { contentType: 'post', contentId: '00000000-0000-4000-8000-000000000000', reason: 'meh' }, message: /Reason must be one of/ },
      { body: { contentType: 'post', contentId: '00000000-0000-4000-8000-000000000000', reason: 'spam', description: long(1001) }, message: 'Description must be at most 1000 characters' },
      { body: { contentType: 'post', contentId: '00000000-0000-4000-8000-000000000000', reason: 'spam', status: 'resolved' }, message: 'Unknown field: status' },
      { body: 'not json', message: /JSON/ },
    ],
  },
];

describe('social routes about posts, the feed and reports: authorization and bad input', () => {
  let h: SocialHarness;
  let world: World;
  const snapshot = async () => JSON.stringify(await h.query(`SELECT (SELECT count(*) FROM outbox) AS events,
      (SELECT md5(coalesce(string_agg(p::text, '' ORDER BY id), '')) FROM posts p) AS posts,
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY id), '')) FROM post_comments c) AS comments,
      (SELECT md5(coalesce(string_agg(r::text, '' ORDER BY post_id, user_id), '')) FROM (SELECT post_id, user_id FROM post_likes UNION ALL SELECT post_id, user_id FROM post_bookmarks) r) AS reactions,
      (SELECT md5(coalesce(string_agg(r::text, '' ORDER BY id), '')) FROM content_reports r) AS reports`));
  const freshPost = async () => (await h.call('post', '/api/posts', { userId: world.owner }).send({ content: 'A post to try things on' }).expect(201)).body.id as string;

  beforeAll(async () => {
    h = await startHarness('socialmatrixposts');
    world = h.world;
    await h.register(world.owner, 'owner', 'Olga Owner');
    await h.register(world.stranger, 'stranger', 'Sam Stranger');
  });
  afterAll(async () => {
    await h.close();
  });

  describe.each(postMatrix)('$method $route', (row) => {
    const cases = (['anonymous', 'author', 'other'] as const).flatMap((who) =>
      (['post', 'missing'] as const).map((target) => ({ who, target, status: row.expected[who][target] })),
    );

    it.each(cases)('$who, $target → $status', async ({ who, target, status }) => {
      const as: As = who === 'author' ? { userId: world.owner } : who === 'other' ? { userId: world.stranger } : {};
      const postId = target === 'post' ? await freshPost() : randomUUID();
      const before = await snapshot();
      const res = await h.call(row.method, row.path(postId), as).send(row.body?.(postId));
      expect(res.status).toBe(status);
      if (status >= 400) {
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
        if (status === 404) expect(res.body.message).toBe(row.notFound ?? POST_NOT_FOUND);
        if (status === 401) expect(res.body.message).toBe('Authentication required');
        expect(await snapshot()).toBe(before);
      }
    });

    if (row.path('x') !== row.path('y')) {
      it('malformed post id → 404 Post not found', async () => {
        const res = await h.call(row.method, row.path('not-a-uuid'), { userId: world.owner }).send(row.body?.('not-a-uuid'));
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(POST_NOT_FOUND);
      });
    }

    if (row.badInput) {
      it.each(row.badInput)('bad input $message → 4xx, nothing changed', async ({ body, path, message, status }) => {
        const postId = await freshPost();
        const before = await snapshot();
        const req = h.call(row.method, (path ?? row.path)(postId), { userId: world.owner });
        const res = typeof body === 'string' ? await req.set('content-type', 'application/json').send(body) : await req.send(body as object | undefined);
        expect(res.status).toBe(status ?? 400);
        expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
        expect(await snapshot()).toBe(before);
      });
    }
  });
});

/**
 * Routes about collections and saved items: each caller (anonymous, the collection's owner,
 * someone else) is tried on a public collection, a private one (fresh ones per case, each holding
 * the public timeline) and one that does not exist. Routes without a collection in the path
 * ignore the target.
 */
type CollectionCaller = 'anonymous' | 'owner' | 'other';
type CollectionTarget = 'public' | 'private' | 'missing';
interface CollectionRow {
  method: Method;
  route: string;
  path: (collectionId: string) => string;
  body?: () => Record<string, unknown>;
  expected: Record<CollectionCaller, Record<CollectionTarget, number>>;
  badInput?: Array<{ body?: unknown; path?: (collectionId: string) => string; message: string | RegExp; status?: number }>;
}
const COLLECTION_NOT_FOUND = 'Collection not found';
const ORDER_MISMATCH = 'The order must list every timeline of the collection once';
const anyCollection = (anonymous: number, signedIn: number) => ({
  anonymous: { public: anonymous, private: anonymous, missing: anonymous },
  owner: { public: signedIn, private: signedIn, missing: signedIn },
  other: { public: signedIn, private: signedIn, missing: signedIn },
});
const collectionReadable = {
  anonymous: { public: 200, private: 404, missing: 404 }, owner: { public: 200, private: 200, missing: 404 }, other: { public: 200, private: 404, missing: 404 },
};
const collectionOwnerOnly = (ok: number) => ({
  anonymous: { public: 401, private: 401, missing: 401 }, owner: { public: ok, private: ok, missing: 404 }, other: { public: 403, private: 404, missing: 404 },
});
const collectionBody = [
  { body: {}, message: 'Collection name is required' },
  { body: { name: '   ' }, message: 'Collection name is required' },
  { body: { name: null }, message: 'Collection name is required' },
  { body: { name: 7 }, message: 'Collection name must be text' },
  { body: { name: long(101) }, message: 'Collection name must be at most 100 characters' },
  { body: { name: 'Trips', description: long(501) }, message: 'Description must be at most 500 characters' },
  { body: { name: 'Trips', description: 5 }, message: 'Description must be text' },
  { body: { name: 'Trips', isPublic: 'yes' }, message: 'isPublic must be true or false' },
  { body: { name: 'Trips', userId: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: userId' },
  { body: { name: 'Trips', timelinesCount: 9 }, message: 'Unknown field: timelinesCount' },
  { body: 'not json', message: /JSON/ },
];
const collectionPage = (path: (collectionId: string) => string) => [
  { path: (id: string) => `${path(id)}?limit=0`, message: 'Limit must be a whole number from 1 to 100' },
  { path: (id: string) => `${path(id)}?cursor=not-a-cursor`, message: 'Invalid cursor' },
  { path: (id: string) => `${path(id)}?cursor=${Buffer.from('["2026-02-30T00:00:00.000000Z","00000000-0000-4000-8000-000000000000"]').toString('base64url')}`, message: 'Invalid cursor' },
  { path: (id: string) => `${path(id)}?sort=oldest`, message: 'Unknown field: sort' },
];
const onCollection = (suffix = '') => (id: string) => `/api/collections/${id}${suffix}`;
/** The public timeline of the world (set in the collections block's beforeAll): every fresh collection holds it. */
let heldTimeline = '';
/** A timeline the owner may see but no fresh collection holds: what gets added. */
let addedTimeline = '';
/** A timeline nobody may see. */
let hiddenTimeline = '';
const collectionMatrix: CollectionRow[] = [
  { method: 'get', route: '/api/collections', path: () => '/api/collections', expected: anyCollection(401, 200), badInput: collectionPage(() => '/api/collections') },
  { method: 'post', route: '/api/collections', path: () => '/api/collections', body: () => ({ name: 'Trips' }), expected: anyCollection(401, 201), badInput: collectionBody },
  { method: 'get', route: '/api/collections/{id}', path: onCollection(), expected: collectionReadable },
  {
    method: 'put', route: '/api/collections/{id}', path: onCollection(), body: () => ({ name: 'Renamed', isPublic: true }), expected: collectionOwnerOnly(200),
    // Every field of a change is optional: an empty body changes nothing (200), the rest are as for a new one.
    badInput: collectionBody.filter((bad) => typeof bad.body !== 'object' || Object.keys(bad.body).length > 0),
  },
  { method: 'delete', route: '/api/collections/{id}', path: onCollection(), expected: collectionOwnerOnly(204) },
  { method: 'get', route: '/api/collections/{id}/timelines', path: onCollection('/timelines'), expected: collectionReadable },
  {
    method: 'post', route: '/api/collections/{id}/timelines', path: onCollection('/timelines'), body: () => ({ timelineId: addedTimeline }), expected: collectionOwnerOnly(201),
    badInput: [
      { body: {}, message: 'timelineId must be an id' },
      { body: { timelineId: 'x' }, message: 'timelineId must be an id' },
      { body: { timelineId: 42 }, message: 'timelineId must be an id' },
      { body: { timelineId: '00000000-0000-4000-8000-000000000000', position: 0 }, message: 'Unknown field: position' },
      { body: 'not json', message: /JSON/ },
      { body: { timelineId: '00000000-0000-4000-8000-000000000000' }, message: 'Timeline not found', status: 404 },
    ],
  },
  {
    method: 'put', route: '/api/collections/{id}/timelines/order', path: onCollection('/timelines/order'), body: () => ({ timelineIds: [heldTimeline] }), expected: collectionOwnerOnly(200),
    badInput: [
      { body: {}, message: 'timelineIds must be a list of ids' },
      { body: { timelineIds: 'x' }, message: 'timelineIds must be a list of ids' },
      { body: { timelineIds: ['x'] }, message: 'timelineIds must be a list of ids' },
      { body: { timelineIds: Array.from({ length: 1001 }, () => '00000000-0000-4000-8000-000000000000') }, message: 'timelineIds may list at most 1000 ids' },
      { body: { timelineIds: [] }, message: ORDER_MISMATCH },
      { body: { timelineIds: ['00000000-0000-4000-8000-000000000000'] }, message: ORDER_MISMATCH },
      { body: { timelineIds: ['HELD', 'HELD'] }, message: ORDER_MISMATCH },
      { body: { timelineIds: [], collectionId: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: collectionId' },
      { body: 'not json', message: /JSON/ },
    ],
  },
  { method: 'delete', route: '/api/collections/{id}/timelines/{timelineId}', path: (id) => `/api/collections/${id}/timelines/${heldTimeline}`, expected: collectionOwnerOnly(204) },
  {
    method: 'get', route: '/api/timelines/{id}/collections', path: () => `/api/timelines/${heldTimeline}/collections`, expected: anyCollection(401, 200),
    badInput: [
      ...collectionPage(() => `/api/timelines/${heldTimeline}/collections`),
      { path: () => `/api/timelines/${hiddenTimeline}/collections`, message: 'Timeline not found', status: 404 },
      { path: () => '/api/timelines/not-a-uuid/collections', message: 'Timeline not found', status: 404 },
    ],
  },
  { method: 'get', route: '/api/bookmarks', path: () => '/api/bookmarks', expected: anyCollection(401, 200), badInput: collectionPage(() => '/api/bookmarks') },
];

describe('social routes about collections and saved items: authorization and bad input', () => {
  let h: SocialHarness;
  let world: World;
  const snapshot = async () => JSON.stringify(await h.query(`SELECT (SELECT count(*) FROM outbox) AS events,
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY id), '')) FROM collections c) AS collections,
      (SELECT md5(coalesce(string_agg(t::text, '' ORDER BY collection_id, timeline_id), '')) FROM collection_timelines t) AS collection_timelines`));
  const freshCollection = async (isPublic: boolean) => {
    const { id } = (await h.call('post', '/api/collections', { userId: world.owner }).send({ name: isPublic ? 'Public' : 'Private', isPublic }).expect(201)).body as { id: string };
    await h.call('post', `/api/collections/${id}/timelines`, { userId: world.owner }).send({ timelineId: heldTimeline }).expect(201);
    return id;
  };
  /** The HELD placeholder of a bad body stands for the held timeline (known only once the world exists). */
  const withHeld = (body: unknown): unknown => (typeof body === 'object' && body !== null ? JSON.parse(JSON.stringify(body).replaceAll('"HELD"', JSON.stringify(heldTimeline))) : body);

  beforeAll(async () => {
    h = await startHarness('socialmatrixcollections');
    world = h.world;
    heldTimeline = world.publicTimeline;
    addedTimeline = world.privateTimeline;
    hiddenTimeline = world.missingTimeline;
    await h.register(world.owner, 'owner', 'Olga Owner');
    await h.register(world.stranger, 'stranger', 'Sam Stranger');
  });
  afterAll(async () => {
    await h.close();
  });

  describe.each(collectionMatrix)('$method $route', (row) => {
    const cases = (['anonymous', 'owner', 'other'] as const).flatMap((who) =>
      (['public', 'private', 'missing'] as const).map((target) => ({ who, target, status: row.expected[who][target] })),
    );

    it.each(cases)('$who, $target collection → $status', async ({ who, target, status }) => {
      const as: As = who === 'owner' ? { userId: world.owner } : who === 'other' ? { userId: world.stranger } : {};
      const collectionId = target === 'missing' ? randomUUID() : await freshCollection(target === 'public');
      const before = await snapshot();
      const res = await h.call(row.method, row.path(collectionId), as).send(row.body?.());
      expect(res.status).toBe(status);
      if (status >= 400) {
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
        if (status === 404) expect(res.body.message).toBe(COLLECTION_NOT_FOUND);
        if (status === 403) expect(res.body.message).toBe('Only the owner can change this collection');
        if (status === 401) expect(res.body.message).toBe('Authentication required');
        expect(await snapshot()).toBe(before);
      }
    });

    if (row.path('x') !== row.path('y')) {
      it('malformed collection id → 404 Collection not found', async () => {
        const before = await snapshot();
        const res = await h.call(row.method, row.path('not-a-uuid'), { userId: world.owner }).send(row.body?.());
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(COLLECTION_NOT_FOUND);
        expect(await snapshot()).toBe(before);
      });
    }

    if (row.badInput) {
      it.each(row.badInput)('bad input $message → 4xx, nothing changed', async ({ body, path, message, status }) => {
        const collectionId = await freshCollection(true);
        const before = await snapshot();
        const req = h.call(row.method, (path ?? row.path)(collectionId), { userId: world.owner });
        const res = typeof body === 'string' ? await req.set('content-type', 'application/json').send(body) : await req.send(withHeld(body) as object | undefined);
        expect(res.status).toBe(status ?? 400);
        expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
        expect(await snapshot()).toBe(before);
      });
    }
  });
});

describe('social routes about a person: authorization and bad input', () => {
  let h: SocialHarness;
  let world: World;
  const snapshot = async () => JSON.stringify(await h.query(`SELECT (SELECT count(*) FROM outbox) AS events,
      (SELECT md5(coalesce(string_agg(f::text, '' ORDER BY follower_id, following_id), '')) FROM follows f) AS follows,
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY user_id), '')) FROM follow_counts c) AS follow_counts,
      (SELECT md5(coalesce(string_agg(a::text, '' ORDER BY id), '')) FROM activities a) AS activities`));

  beforeAll(async () => {
    h = await startHarness('socialmatrixusers');
    world = h.world;
    await h.register(world.stranger, 'stranger', 'Sam Stranger');
    await h.register(world.collaborator, 'collab', 'Cleo Collaborator');
  });
  afterAll(async () => {
    await h.close();
  });

  describe.each(userMatrix)('$method $route', (row) => {
    const cases = (['anonymous', 'signedIn'] as const).flatMap((who) =>
      (['known', 'unknown', 'self'] as const).map((target) => ({ who, target, status: row.expected[who][target] })),
    );

    it.each(cases)('$who, $target person → $status', async ({ who, target, status }) => {
      const as: As = who === 'signedIn' ? { userId: world.stranger } : {};
      // Anonymous callers have no self: the person is then simply a known one.
      const userId = target === 'known' ? world.collaborator : target === 'unknown' ? randomUUID() : world.stranger;
      const before = await snapshot();
      const res = await h.call(row.method, row.path(userId), as);
      expect(res.status).toBe(status);
      if (status >= 400) {
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
        if (status === 404) expect(res.body.message).toBe(USER_NOT_FOUND);
        if (status === 401) expect(res.body.message).toBe('Authentication required');
        if (status === 400) expect(res.body.message).toBe('You cannot follow yourself');
        expect(await snapshot()).toBe(before);
      }
    });

    it('malformed person id → 404 User not found', async () => {
      const res = await h.call(row.method, row.path('not-a-uuid'), { userId: world.stranger });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(USER_NOT_FOUND);
    });

    if (row.badInput) {
      it.each(row.badInput)('bad input $message → 4xx, nothing changed', async ({ path, message, status }) => {
        const before = await snapshot();
        const res = await h.call(row.method, path(world.collaborator), { userId: world.stranger });
        expect(res.status).toBe(status ?? 400);
        expect(res.body.message).toBe(message);
        expect(await snapshot()).toBe(before);
      });
    }
  });
});

/**
 * Follow requests, blocks, mutes and muted words: a person's own lists, and their relation to
 * someone else. Each caller (anonymous, signed in) is tried on a target: someone the users read
 * model knows, someone it does not, themselves, and someone whose follow request to them waits
 * (the caller's account is private); the muted-word route on a word of their own, of someone
 * else's, and an unknown one. Routes without a target in the path ignore it.
 */
type SafetyTarget = 'known' | 'unknown' | 'self' | 'requester';
interface SafetyRow {
  method: Method;
  route: string;
  /** `person` is the target's id; `wordId` a muted word of the target (of the caller for `self`). */
  path: (ids: { person: string; wordId: string }) => string;
  body?: () => Record<string, unknown>;
  /** Signed-in answers per target (signed-out callers always get 401). */
  expected: Record<SafetyTarget, number>;
  /** The message of each refusal, by status. */
  messages?: Partial<Record<number, string>>;
  badInput?: Array<{ body?: unknown; path?: string; message: string | RegExp; status?: number }>;
}
const ownList = (ok = 200): Record<SafetyTarget, number> => ({ known: ok, unknown: ok, self: ok, requester: ok });
const aboutPerson = (self: number): Record<SafetyTarget, number> => ({ known: 200, unknown: 404, self, requester: 200 });
const onPerson = (suffix: string) => ({ person }: { person: string }) => `/api/users/${person}/${suffix}`;
const onRequest = (action: string) => ({ person }: { person: string }) => `/api/follow-requests/${person}/${action}`;
const REQUEST_NOT_FOUND = { 404: 'Follow request not found' };
const safetyMatrix: SafetyRow[] = [
  { method: 'get', route: '/api/follow-requests', path: () => '/api/follow-requests', expected: ownList(), badInput: pageBadInput(() => '/api/follow-requests').map(({ path, message }) => ({ path: path(''), message })) },
  { method: 'get', route: '/api/follow-requests/count', path: () => '/api/follow-requests/count', expected: ownList() },
  { method: 'post', route: '/api/follow-requests/{userId}/approve', path: onRequest('approve'), expected: { known: 404, unknown: 404, self: 404, requester: 200 }, messages: REQUEST_NOT_FOUND },
  { method: 'post', route: '/api/follow-requests/{userId}/decline', path: onRequest('decline'), expected: { known: 404, unknown: 404, self: 404, requester: 200 }, messages: REQUEST_NOT_FOUND },
  { method: 'get', route: '/api/blocks', path: () => '/api/blocks', expected: ownList() },
  { method: 'post', route: '/api/users/{id}/block', path: onPerson('block'), expected: aboutPerson(400), messages: { 400: 'You cannot block yourself', 404: USER_NOT_FOUND } },
  { method: 'delete', route: '/api/users/{id}/block', path: onPerson('block'), expected: aboutPerson(400), messages: { 400: 'You cannot block yourself', 404: USER_NOT_FOUND } },
  { method: 'get', route: '/api/mutes', path: () => '/api/mutes', expected: ownList() },
  { method: 'get', route: '/api/users/{id}/mute', path: onPerson('mute'), expected: aboutPerson(400), messages: { 400: 'You cannot mute yourself', 404: USER_NOT_FOUND } },
  { method: 'post', route: '/api/users/{id}/mute', path: onPerson('mute'), expected: aboutPerson(400), messages: { 400: 'You cannot mute yourself', 404: USER_NOT_FOUND } },
  { method: 'delete', route: '/api/users/{id}/mute', path: onPerson('mute'), expected: aboutPerson(400), messages: { 400: 'You cannot mute yourself', 404: USER_NOT_FOUND } },
  { method: 'get', route: '/api/muted-words', path: () => '/api/muted-words', expected: ownList() },
  {
    method: 'post', route: '/api/muted-words', path: () => '/api/muted-words', body: () => ({ word: '#spoilers', duration: 'week' }), expected: ownList(201),
    badInput: [
      { body: {}, message: 'Word must be text' },
      { body: { word: 7 }, message: 'Word must be text' },
      { body: { word: '   ' }, message: 'Word is required' },
      { body: { word: long(101) }, message: 'A muted word may be at most 100 characters' },
      { body: { word: 'x', duration: 'year' }, message: 'Duration must be one of day, week, forever' },
      { body: { word: 'x', userId: '00000000-0000-4000-8000-000000000000' }, message: 'Unknown field: userId' },
      { body: 'not json', message: /JSON/ },
    ],
  },
  {
    method: 'delete', route: '/api/muted-words/{wordId}', path: ({ wordId }) => `/api/muted-words/${wordId}`, expected: { known: 404, unknown: 404, self: 204, requester: 404 }, messages: { 404: 'Muted word not found' },
    badInput: [{ path: '/api/muted-words/not-a-uuid', message: 'Muted word not found', status: 404 }],
  },
];

describe('social routes about follow requests, blocks and mutes: authorization and bad input', () => {
  let h: SocialHarness;
  let world: World;
  const snapshot = async () => JSON.stringify(await h.query(`SELECT (SELECT count(*) FROM outbox) AS events,
      (SELECT md5(coalesce(string_agg(f::text, '' ORDER BY follower_id, following_id), '')) FROM follows f) AS follows,
      (SELECT md5(coalesce(string_agg(r::text, '' ORDER BY requester_id, target_id), '')) FROM follow_requests r) AS requests,
      (SELECT md5(coalesce(string_agg(b::text, '' ORDER BY blocker_id, blocked_id), '')) FROM blocks b) AS blocks,
      (SELECT md5(coalesce(string_agg(m::text, '' ORDER BY muter_id, muted_id), '')) FROM mutes m) AS mutes,
      (SELECT md5(coalesce(string_agg(w::text, '' ORDER BY id), '')) FROM muted_words w) AS words`));
  let requesters = 0;
  /** Someone new whose follow request to the (private) caller waits. */
  const freshRequester = async () => {
    const id = randomUUID();
    requesters += 1;
    await h.register(id, `asker${requesters}`, `Asker ${requesters}`);
    await h.call('post', `/api/users/${world.stranger}/follow`, { userId: id }).expect(200);
    return id;
  };
  const freshWord = async (userId: string) => ((await h.call('post', '/api/muted-words', { userId }).send({ word: `w${randomUUID().slice(0, 8)}` }).expect(201)).body as { id: string }).id;

  beforeAll(async () => {
    h = await startHarness('socialmatrixsafety');
    world = h.world;
    await h.register(world.stranger, 'stranger', 'Sam Stranger');
    await h.register(world.collaborator, 'collab', 'Cleo Collaborator');
    // The caller's account is private: following it is a request.
    await h.query('UPDATE users SET is_private = true WHERE id = $1', [world.stranger]);
  });
  afterAll(async () => {
    await h.close();
  });

  describe.each(safetyMatrix)('$method $route', (row) => {
    const cases = (['anonymous', 'signedIn'] as const).flatMap((who) =>
      (['known', 'unknown', 'self', 'requester'] as const).map((target) => ({ who, target, status: who === 'anonymous' ? 401 : row.expected[target] })),
    );

    it.each(cases)('$who, $target → $status', async ({ who, target, status }) => {
      const as: As = who === 'signedIn' ? { userId: world.stranger } : {};
      const person = target === 'known' ? world.collaborator : target === 'unknown' ? randomUUID() : target === 'self' ? world.stranger : await freshRequester();
      const wordId = target === 'self' ? await freshWord(world.stranger) : target === 'unknown' ? randomUUID() : await freshWord(world.collaborator);
      const before = await snapshot();
      const res = await h.call(row.method, row.path({ person, wordId }), as).send(row.body?.());
      expect(res.status).toBe(status);
      if (status >= 400) {
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
        if (status === 401) expect(res.body.message).toBe('Authentication required');
        if (row.messages?.[status]) expect(res.body.message).toBe(row.messages[status]);
        expect(await snapshot()).toBe(before);
      }
    });

    if (row.path({ person: 'x', wordId: 'x' }) !== row.path({ person: 'y', wordId: 'y' }) && row.route.includes('/users/')) {
      it('malformed person id → 404 User not found', async () => {
        const res = await h.call(row.method, row.path({ person: 'not-a-uuid', wordId: 'x' }), { userId: world.stranger });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(USER_NOT_FOUND);
      });
    }

    if (row.badInput) {
      it.each(row.badInput)('bad input $message → 4xx, nothing changed', async ({ body, path, message, status }) => {
        const before = await snapshot();
        const req = h.call(row.method, path ?? row.path({ person: world.collaborator, wordId: randomUUID() }), { userId: world.stranger });
        const res = typeof body === 'string' ? await req.set('content-type', 'application/json').send(body) : await req.send(body as object | undefined);
        expect(res.status).toBe(status ?? 400);
        expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
        expect(await snapshot()).toBe(before);
      });
    }
  });
});

describe('social routes: authorization and bad input', () => {
  let h: SocialHarness;
  let world: World;

  /** Who calls, and which timeline is the one they can / cannot see under the policy. */
  const callers = (): Record<Who, { as: As; timelines: Record<Visibility, string> }> => ({
    anonymous: { as: {}, timelines: { canView: world.publicTimeline, cannotView: world.privateTimeline } },
    stranger: { as: { userId: world.stranger }, timelines: { canView: world.publicTimeline, cannotView: world.privateTimeline } },
    collaborator: { as: { userId: world.collaborator }, timelines: { canView: world.privateTimeline, cannotView: world.missingTimeline } },
  });

  const snapshot = async () => JSON.stringify(await h.query(`SELECT
      (SELECT count(*) FROM timeline_comments) AS comments, (SELECT count(*) FROM outbox) AS events,
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY id), '')) FROM timeline_comments c) AS content,
      (SELECT md5(coalesce(string_agg(r::text, '' ORDER BY timeline_id, user_id), '')) FROM (SELECT timeline_id, user_id FROM timeline_likes UNION ALL SELECT timeline_id, user_id FROM timeline_bookmarks) r) AS timeline_reactions,
      (SELECT md5(coalesce(string_agg(r::text, '' ORDER BY timeline_id), '')) FROM timeline_reactions r) AS timeline_counts,
      (SELECT md5(coalesce(string_agg(l::text, '' ORDER BY video_id, user_id), '')) FROM video_likes l) AS video_likes,
      (SELECT md5(coalesce(string_agg(c::text, '' ORDER BY id), '')) FROM video_comments c) AS video_comments,
      (SELECT md5(coalesce(string_agg(v::text, '' ORDER BY id), '')) FROM videos v) AS videos`));

  beforeAll(async () => {
    h = await startHarness('socialmatrix');
    world = h.world;
    await h.register(world.stranger, 'stranger', 'Sam Stranger');
    await h.register(world.collaborator, 'collab', 'Cleo Collaborator');
    for (const timelineId of [world.publicTimeline, world.privateTimeline, world.missingTimeline]) {
      const videoId = await h.addVideo(timelineId);
      videoOn.set(timelineId, videoId);
      const commentId = randomUUID();
      await h.query('INSERT INTO video_comments (id, video_id, timeline_id, user_id, content) VALUES ($1, $2, $3, $4, $5)', [commentId, videoId, timelineId, world.owner, 'Set up']);
      commentOn.set(timelineId, commentId);
    }
    commentOn.set(ELSEWHERE, commentOn.get(world.publicTimeline)!);
  });
  afterAll(async () => {
    await h.close();
  });

  it('covers every route the service serves', async () => {
    const doc = (await h.call('get', '/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
    // The moderation desk's and the comment controls' routes have their own suites (moderation.test.ts, comment-controls.test.ts), over the same lists.
    const covered = [...matrix, ...userMatrix, ...postMatrix, ...collectionMatrix, ...safetyMatrix, ...moderationRoutes, ...commentControlRoutes].map((r) => `${r.method.toUpperCase()} ${r.route}`).sort();
    expect(covered).toEqual(served);
  });

  describe.each(matrix)('$method $route', (row) => {
    const cases = (['anonymous', 'stranger', 'collaborator'] as const).flatMap((who) =>
      (['canView', 'cannotView'] as const).map((visibility) => ({ who, visibility, status: row.expected[who][visibility] })),
    );

    it.each(cases)('$who, timeline it $visibility → $status', async ({ who, visibility, status }) => {
      const { as, timelines } = callers()[who];
      const before = await snapshot();
      const res = await h.call(row.method, row.path(timelines[visibility]), as).send(row.body?.());
      expect(res.status).toBe(status);
      if (status >= 400) {
        expect(res.body).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
        if (status === 404) expect(res.body.message).toBe(row.notFound ?? 'Timeline not found');
        if (status === 401) expect(res.body.message).toBe('Authentication required');
        expect(await snapshot()).toBe(before);
      }
    });

    it('malformed timeline id → 404 without asking the timelines service', async () => {
      const asked = h.asked.length;
      const res = await h.call(row.method, row.path('not-a-uuid'), { userId: world.collaborator }).send(row.body?.());
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(row.notFound ?? 'Timeline not found');
      expect(h.asked.length).toBe(asked);
    });

    if (row.badInput) {
      it.each(row.badInput)('bad input $message → 4xx, nothing changed', async ({ body, path, message, status }) => {
        const before = await snapshot();
        const req = h.call(row.method, (path ?? row.path)(world.privateTimeline), { userId: world.collaborator });
        const res = typeof body === 'string' ? await req.set('content-type', 'application/json').send(body) : await req.send(body as object | undefined);
        expect(res.status).toBe(status ?? 400);
        expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
        expect(await snapshot()).toBe(before);
      });
    }
  });
});
