import type { RateCounter } from './rate-counter.js';

/**
 * What a person creates for others to see: timelines, posts, comments and replies, invitations,
 * exports, reports, collections, and profile pictures (each one decoded and resized). Each is a
 * POST to one of these paths (ids are single segments).
 */
const CONTENT_WRITES = [
  /^\/api\/timelines$/,
  /^\/api\/posts$/,
  /^\/api\/reports$/,
  /^\/api\/(timelines|posts|videos)\/[^/]+\/comments$/,
  /^\/api\/videos\/[^/]+\/comments\/[^/]+\/replies$/,
  /^\/api\/timelines\/[^/]+\/(invite|export)$/,
  /^\/api\/invitations\/[^/]+\/resend$/,
  /^\/api\/collections$/,
  /^\/api\/media\/avatar$/,
];

/**
 * A write by someone not signed in (what the route table opens to them: a view from the embed
 * player, an invitation declined): views count for rankings, so one address may not inflate them.
 * Sign-in and registration (`/api/auth/*`) have their own limit.
 */
export const isAnonymousWrite = (method: string, path: string): boolean => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && !path.startsWith('/api/auth/');

export const isContentWrite = (method: string, path: string): boolean => method === 'POST' && CONTENT_WRITES.some((pattern) => pattern.test(path));

/**
 * A limit of `max` hits per key in fixed windows, over a RateCounter (this replica's memory, or
 * Redis shared by all replicas). The per-person limit on content writes is one: generous enough
 * that nobody typing meets it (60 a minute by default), tight enough that a script cannot flood a
 * timeline with 110 comments in a few seconds; keyed by user id, so a person's sessions share one
 * budget.
 */
export class WindowLimit {
  constructor(
    private readonly counter: RateCounter,
    /** Keeps this limit's keys apart from the other limits' in the same counter. */
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit; 0 when it is allowed, else the seconds until the next one is. */
  async take(subject: string): Promise<number> {
    const window = await this.counter.hit(`${this.name}:${subject}`, this.windowMs);
    if (window.count <= this.max) return 0;
    return Math.max(1, Math.ceil(window.resetInMs / 1000));
  }
}
