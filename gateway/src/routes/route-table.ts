/**
 * Which service owns which public path. The gateway forwards `/api/*` requests to the owner
 * named here, path unchanged; a path no entry matches is answered 404 without reaching a service.
 *
 * Patterns: literal segments, `:name` for one segment, and a trailing `*` for one or more
 * further segments (`/api/auth/*` matches `/api/auth/me`, not `/api/auth`). When several match,
 * the most specific wins (literal over `:param` over `*`, segment by segment), so the order of
 * the entries does not matter.
 *
 * Who may call without signing in is decided here and nowhere else: `anonymous` lists the methods
 * a caller without a session may use on an entry (`GET` covers `HEAD`); any other request without
 * a session is answered 401 by the gateway and never reaches a service. The rule
 * (gateway/README.md, "Signed-out callers"): exactly what the sign-in screen, the invitation page, the
 * embed player and a shared link's preview need: a published timeline that is not private, its
 * media and counts, its creator's name and picture. The owning service still decides, object by
 * object, what such a caller may see (a private or draft timeline is 404 to them).
 */
export type AnonymousMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RouteEntry {
  pattern: string;
  service: string;
  /** Methods a caller without a session may use here; none when absent. */
  anonymous?: readonly AnonymousMethod[];
}

export const ROUTES: readonly RouteEntry[] = [
  // auth: accounts, sessions, profiles
  { pattern: '/api/auth/*', service: 'auth' },
  // the sign-in screen
  { pattern: '/api/auth/login', service: 'auth', anonymous: ['POST'] },
  { pattern: '/api/auth/register', service: 'auth', anonymous: ['POST'] },
  // the second step of a password sign-in (a code), and signing in with a passkey alone
  { pattern: '/api/auth/login/second-step', service: 'auth', anonymous: ['POST'] },
  { pattern: '/api/auth/passkeys/sign-in-options', service: 'auth', anonymous: ['POST'] },
  { pattern: '/api/auth/passkeys/sign-in', service: 'auth', anonymous: ['POST'] },
  // "Forgot password?" on the sign-in screen, and the page its e-mailed link opens
  { pattern: '/api/auth/password/forgot', service: 'auth', anonymous: ['POST'] },
  { pattern: '/api/auth/password/reset', service: 'auth', anonymous: ['POST'] },
  // the link confirming a new e-mail address, which may be opened on a device that is not signed in
  { pattern: '/api/auth/email/confirm', service: 'auth', anonymous: ['POST'] },
  // signing in during a deletion's grace period offers to cancel it: the sign-in screen does so
  { pattern: '/api/auth/account/deletion/cancel', service: 'auth', anonymous: ['POST'] },
  { pattern: '/api/users/:id/profile', service: 'auth' },

  // timelines: timelines, collaborators, invitations, analytics
  { pattern: '/api/timelines', service: 'timelines' },
  { pattern: '/api/my-timelines', service: 'timelines' },
  // the embed player: the timeline (its counts and its creator's name), and the views it records
  { pattern: '/api/timelines/:id', service: 'timelines', anonymous: ['GET'] },
  { pattern: '/api/timelines/:id/collaborators', service: 'timelines' },
  { pattern: '/api/timelines/:id/collaborators/:userId', service: 'timelines' },
  { pattern: '/api/timelines/:id/transfer-ownership', service: 'timelines' },
  // a collaborator other than the owner leaves the team
  { pattern: '/api/timelines/:id/leave', service: 'timelines' },
  { pattern: '/api/timelines/:id/invite', service: 'timelines' },
  { pattern: '/api/timelines/:id/invitations', service: 'timelines' },
  { pattern: '/api/timelines/:id/analytics', service: 'timelines' },
  { pattern: '/api/timelines/:id/views', service: 'timelines', anonymous: ['POST'] },
  { pattern: '/api/timelines/:id/shares', service: 'timelines' },
  { pattern: '/api/timelines/:id/downloads', service: 'timelines' },
  { pattern: '/api/timelines/:id/watch-position', service: 'timelines' },
  // the invitation page opens without signing in; accepting needs an account
  { pattern: '/api/invitations/:idOrToken', service: 'timelines', anonymous: ['GET'] },
  { pattern: '/api/invitations/:idOrToken/accept', service: 'timelines' },
  { pattern: '/api/invitations/:idOrToken/decline', service: 'timelines', anonymous: ['POST'] },
  { pattern: '/api/invitations/:idOrToken/resend', service: 'timelines' },

  // social: the feed, posts, comments, likes, bookmarks, follows, reports
  { pattern: '/api/feed', service: 'social' },
  { pattern: '/api/posts', service: 'social' },
  { pattern: '/api/posts/:id', service: 'social' },
  { pattern: '/api/posts/:id/comments', service: 'social' },
  { pattern: '/api/posts/:id/like', service: 'social' },
  { pattern: '/api/posts/:id/liked', service: 'social' },
  { pattern: '/api/posts/:id/bookmark', service: 'social' },
  { pattern: '/api/posts/:id/bookmarked', service: 'social' },
  { pattern: '/api/reports', service: 'social' },
  // the moderation desk (staff only: social refuses everyone else) and a person's own moderation notices and appeals
  { pattern: '/api/moderation/*', service: 'social' },
  { pattern: '/api/moderation-notices', service: 'social' },
  { pattern: '/api/moderation-notices/:actionId/appeal', service: 'social' },
  { pattern: '/api/timelines/:id/comments', service: 'social' },
  { pattern: '/api/timelines/:id/like', service: 'social' },
  { pattern: '/api/timelines/:id/liked', service: 'social' },
  { pattern: '/api/timelines/:id/bookmark', service: 'social' },
  { pattern: '/api/timelines/:id/bookmarked', service: 'social' },
  // comment controls of a timeline (and its videos) for its owner and editors, of a post for its author
  { pattern: '/api/timelines/:id/comment-settings', service: 'social' },
  { pattern: '/api/timelines/:id/held-comments', service: 'social' },
  { pattern: '/api/timelines/:id/comments/:commentId', service: 'social' },
  { pattern: '/api/timelines/:id/comments/:commentId/approve', service: 'social' },
  { pattern: '/api/timelines/:id/comments/:commentId/pin', service: 'social' },
  { pattern: '/api/posts/:id/comment-settings', service: 'social' },
  { pattern: '/api/posts/:id/held-comments', service: 'social' },
  { pattern: '/api/posts/:id/comments/:commentId', service: 'social' },
  { pattern: '/api/posts/:id/comments/:commentId/approve', service: 'social' },
  { pattern: '/api/posts/:id/comments/:commentId/pin', service: 'social' },
  // follows of a person; /api/users/:id/profile stays with auth
  { pattern: '/api/users/:id/follow', service: 'social' },
  // a private account's pending follow requests, answered by its owner
  { pattern: '/api/follow-requests', service: 'social' },
  { pattern: '/api/follow-requests/count', service: 'social' },
  { pattern: '/api/follow-requests/:userId/approve', service: 'social' },
  { pattern: '/api/follow-requests/:userId/decline', service: 'social' },
  { pattern: '/api/users/:id/following', service: 'social' },
  { pattern: '/api/users/:id/followers', service: 'social' },
  { pattern: '/api/users/:id/following-list', service: 'social' },
  { pattern: '/api/users/:id/timelines', service: 'social' },
  { pattern: '/api/users/:id/activity', service: 'social' },
  // blocks and mutes: of a person, and the caller's own lists (settings)
  { pattern: '/api/users/:id/block', service: 'social' },
  { pattern: '/api/users/:id/mute', service: 'social' },
  { pattern: '/api/blocks', service: 'social' },
  { pattern: '/api/mutes', service: 'social' },
  { pattern: '/api/muted-words', service: 'social' },
  { pattern: '/api/muted-words/:wordId', service: 'social' },
  // collections and saved items; /order is a literal, so it beats :timelineId
  { pattern: '/api/collections', service: 'social' },
  { pattern: '/api/collections/:id', service: 'social' },
  { pattern: '/api/collections/:id/timelines', service: 'social' },
  { pattern: '/api/collections/:id/timelines/order', service: 'social' },
  { pattern: '/api/collections/:id/timelines/:timelineId', service: 'social' },
  { pattern: '/api/timelines/:id/collections', service: 'social' },
  { pattern: '/api/bookmarks', service: 'social' },
  // likes and comments of single videos: more specific than media's /api/videos/*
  { pattern: '/api/videos/:id/like', service: 'social' },
  { pattern: '/api/videos/:id/liked', service: 'social' },
  { pattern: '/api/videos/:id/comments', service: 'social' },
  { pattern: '/api/videos/:id/comments/:commentId', service: 'social' },
  { pattern: '/api/videos/:id/comments/:commentId/replies', service: 'social' },
  { pattern: '/api/videos/:id/comments/:commentId/approve', service: 'social' },
  { pattern: '/api/videos/:id/comments/:commentId/pin', service: 'social' },

  // notifications: the bell's count, the list, read marks, preferences, Web Push subscriptions
  { pattern: '/api/notifications', service: 'notifications' },
  { pattern: '/api/notifications/*', service: 'notifications' },

  // search: full-text search, recent searches, popular timelines, trending hashtags
  { pattern: '/api/search/enhanced', service: 'search' },
  { pattern: '/api/search/history', service: 'search' },
  { pattern: '/api/search/history/:id', service: 'search' },
  { pattern: '/api/discover/popular/timeline', service: 'search' },
  { pattern: '/api/hashtags/trending', service: 'search' },

  // media: resumable uploads (tus), simple uploads, lists, order, titles, deletion, streaming, exports
  { pattern: '/api/uploads', service: 'media' },
  { pattern: '/api/uploads/*', service: 'media' },
  { pattern: '/api/timelines/:id/videos', service: 'media', anonymous: ['GET'] },
  { pattern: '/api/timelines/:id/videos/*', service: 'media' },
  { pattern: '/api/timelines/:id/media', service: 'media' },
  // the studio's list of images and videos still missing alt text or a description
  { pattern: '/api/timelines/:id/media/missing-alt-text', service: 'media' },
  { pattern: '/api/timelines/:id/export', service: 'media' },
  { pattern: '/api/videos/*', service: 'media' },
  { pattern: '/api/media/*', service: 'media' },
  // Files the browser loads by address, without the bearer header (video and img elements, a
  // download link): a signed `access` token, or a timeline the caller may see, opens them.
  { pattern: '/api/videos/:id/stream', service: 'media', anonymous: ['GET'] },
  { pattern: '/api/videos/:id/thumbnail', service: 'media', anonymous: ['GET'] },
  { pattern: '/api/videos/:id/hls/*', service: 'media', anonymous: ['GET'] },
  // captions: the list and each WebVTT file (a <track> loads it by its signed address)
  { pattern: '/api/videos/:id/captions', service: 'media', anonymous: ['GET'] },
  { pattern: '/api/videos/:id/captions/:language', service: 'media', anonymous: ['GET'] },
  { pattern: '/api/media/:id/file', service: 'media', anonymous: ['GET'] },
  { pattern: '/api/exports/:id/file', service: 'media', anonymous: ['GET'] },
  // profile pictures (uploaded through /api/media/avatar), public like the creator's name
  { pattern: '/api/users/:id/avatar', service: 'media', anonymous: ['GET'] },
  { pattern: '/api/exports/*', service: 'media' },
  // "Download your data" in settings; its file opens with the signed link alone (a download the browser makes without the bearer header)
  { pattern: '/api/account/data-exports', service: 'media' },
  { pattern: '/api/account/data-exports/:id/file', service: 'media', anonymous: ['GET'] },
];

export interface RouteMatch {
  /** The table pattern that matched: also the metrics label for the route. */
  pattern: string;
  service: string;
  /** Methods a caller without a session may use (`GET` covers `HEAD`). */
  anonymous: readonly AnonymousMethod[];
}

/** Whether a caller without a session may make this request (the route's `anonymous` methods). */
export function anonymousMayCall(route: RouteMatch, method: string): boolean {
  const asked = method === 'HEAD' ? 'GET' : method;
  return route.anonymous.some((allowed) => allowed === asked);
}

type Segment = { kind: 'literal'; value: string } | { kind: 'param' } | { kind: 'rest' };

interface CompiledRoute extends RouteEntry {
  segments: Segment[];
}

// Per segment: literal beats param beats rest.
const RANK: Record<Segment['kind'], number> = { literal: 2, param: 1, rest: 0 };

function compile(entry: RouteEntry): CompiledRoute {
  if (!entry.pattern.startsWith('/')) throw new Error(`Route pattern "${entry.pattern}" must start with "/"`);
  const parts = entry.pattern.slice(1).split('/');
  const segments = parts.map((part, i): Segment => {
    if (part === '*') {
      if (i !== parts.length - 1) throw new Error(`Route pattern "${entry.pattern}": "*" must be the last segment`);
      return { kind: 'rest' };
    }
    if (/^:[A-Za-z][A-Za-z0-9_]*$/.test(part)) return { kind: 'param' };
    if (part === '' || /[:*]/.test(part)) throw new Error(`Route pattern "${entry.pattern}": bad segment "${part}"`);
    return { kind: 'literal', value: part };
  });
  return { ...entry, segments };
}

function matches(route: CompiledRoute, parts: string[]): boolean {
  const { segments } = route;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 'rest') return parts.length > i && parts.slice(i).some((p) => p !== '');
    const part = parts[i];
    if (part === undefined || part === '') return false;
    if (segment.kind === 'literal' && segment.value !== part) return false;
  }
  return parts.length === segments.length;
}

/** Negative when `a` is more specific than `b`. */
function bySpecificity(a: CompiledRoute, b: CompiledRoute): number {
  const length = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < length; i++) {
    const ra = a.segments[i] ? RANK[a.segments[i]!.kind] : -1;
    const rb = b.segments[i] ? RANK[b.segments[i]!.kind] : -1;
    if (ra !== rb) return rb - ra;
  }
  return 0;
}

export class RouteTable {
  private readonly routes: CompiledRoute[];

  constructor(entries: readonly RouteEntry[] = ROUTES) {
    this.routes = entries.map(compile).sort(bySpecificity);
    const seen = new Set<string>();
    for (const route of this.routes) {
      const shape = route.segments.map((s) => (s.kind === 'literal' ? s.value : s.kind)).join('/');
      if (seen.has(shape)) throw new Error(`Route pattern "${route.pattern}" duplicates another entry`);
      seen.add(shape);
    }
  }

  /** The owner of a path (no query string); null when no entry matches. */
  resolve(path: string): RouteMatch | null {
    const parts = path.split('/').slice(1);
    const route = this.routes.find((r) => matches(r, parts));
    return route ? { pattern: route.pattern, service: route.service, anonymous: route.anonymous ?? [] } : null;
  }

  /** Every service some route points at. */
  services(): string[] {
    return [...new Set(this.routes.map((r) => r.service))].sort();
  }
}
