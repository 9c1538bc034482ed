/**
 * What a person creates for others to see: timelines, posts, comments and replies, invitations,
 * exports and reports. Each is a POST to one of these paths (ids are single segments).
 */
const CONTENT_WRITES = [
  /^\/api\/timelines$/,
  /^\/api\/posts$/,
  /^\/api\/reports$/,
  /^\/api\/(timelines|posts|videos)\/[^/]+\/comments$/,
  /^\/api\/videos\/[^/]+\/comments\/[^/]+\/replies$/,
  /^\/api\/timelines\/[^/]+\/(invite|export)$/,
  /^\/api\/invitations\/[^/]+\/resend$/,
];

/**
 * A write by someone not signed in: views, downloads and shares count for rankings, so one address
 * may not inflate them. Sign-in and registration (`/api/auth/*`) have their own limit.
 */
export const isAnonymousWrite = (method: string, path: string): boolean => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && !path.startsWith('/api/auth/');

export const isContentWrite = (method: string, path: string): boolean => method === 'POST' && CONTENT_WRITES.some((pattern) => pattern.test(path));

/**
 * Per-person limit on content writes, in fixed windows: generous enough that nobody typing meets
 * it (60 a minute by default), tight enough that a script cannot flood a timeline with 110
 * comments in a few seconds. Kept in this replica's memory, keyed by user id, so a person's
 * sessions share one budget; entries are dropped when their window ends.
 */
export class ContentRateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one write; 0 when it is allowed, else the seconds until the next one is. */
  take(userId: string): number {
    const now = this.now();
    if (this.windows.size > 10_000) this.sweep(now);
    let window = this.windows.get(userId);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(userId, window);
    }
    if (window.count >= this.max) return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
    window.count += 1;
    return 0;
  }

  private sweep(now: number): void {
    for (const [userId, window] of this.windows) if (window.resetAt <= now) this.windows.delete(userId);
  }
}
