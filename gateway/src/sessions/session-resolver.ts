import { bearerToken, tokenHash } from './bearer-token.js';
import { ExpiringLru } from './session-cache.js';
import type { SessionLookup, VerifiedSession } from './session-lookup.js';

export interface SessionResolverOptions {
  /** How long a valid session is trusted without asking again (never past its expiry). */
  ttlMs: number;
  /** How long "not a valid token" is remembered: short, it only spares the auth service from repeats. */
  negativeTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Observes each resolution, for metrics. */
  onResult?: (result: 'cached' | 'verified' | 'rejected' | 'unavailable') => void;
}

/** What the auth service announced as ended (`AuthEvents.SessionRevoked`). */
export interface Revocation {
  tokenHash?: string;
  sessionId?: string;
  /** With no session id: every session of the user (account deleted). */
  userId?: string;
}

/**
 * Bearer token → session, through the auth service, with a brief memory.
 *
 * A revocation evicts at once; a lookup that was already on its way when the revocation arrived
 * may carry the answer from before it, so its result is used for that one request but never
 * cached (the generation counter tells).
 */
export class SessionResolver {
  private readonly cache: ExpiringLru<VerifiedSession | null>;
  private readonly pending = new Map<string, Promise<VerifiedSession | null>>();
  private readonly listeners = new Set<(revocation: Revocation) => void>();
  private readonly negativeTtlMs: number;
  private readonly now: () => number;
  private generation = 0;

  constructor(
    private readonly lookup: SessionLookup,
    private readonly options: SessionResolverOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.cache = new ExpiringLru(options.maxEntries ?? 50_000, this.now);
  }

  /**
   * The session of an Authorization header; null for none or an invalid one. Throws
   * SessionCheckUnavailableError. `fresh` asks the auth service even when the answer is cached:
   * for writes, so a token signed out on another replica a moment ago cannot change anything
   * while that replica's revocation event is still on its way.
   */
  resolveHeader(header: string | string[] | undefined, requestId?: string, options: { fresh?: boolean } = {}): Promise<VerifiedSession | null> {
    const token = bearerToken(header);
    return token ? this.resolve(token, requestId, options) : Promise.resolve(null);
  }

  async resolve(token: string, requestId?: string, { fresh = false }: { fresh?: boolean } = {}): Promise<VerifiedSession | null> {
    const hash = tokenHash(token);
    if (fresh) return this.live(await this.verify(hash, requestId));
    const cached = this.cache.get(hash);
    if (cached !== undefined) {
      this.options.onResult?.('cached');
      return this.live(cached);
    }
    let pending = this.pending.get(hash);
    if (!pending) {
      pending = this.verify(hash, requestId);
      this.pending.set(hash, pending);
      const settled = pending;
      const forget = () => {
        if (this.pending.get(hash) === settled) this.pending.delete(hash);
      };
      settled.then(forget, forget);
    }
    return this.live(await pending);
  }

  revoke(revocation: Revocation): void {
    this.generation++;
    this.pending.clear();
    if (revocation.tokenHash) this.cache.delete(revocation.tokenHash);
    const { sessionId, userId } = revocation;
    if (sessionId) this.cache.deleteWhere((s) => s?.sessionId === sessionId);
    else if (userId) this.cache.deleteWhere((s) => s?.userId === userId);
    for (const listener of this.listeners) listener(revocation);
  }

  /** Called on every revocation (open sockets of that session close). */
  onRevoked(listener: (revocation: Revocation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async verify(hash: string, requestId?: string): Promise<VerifiedSession | null> {
    const generation = this.generation;
    let session: VerifiedSession | null;
    try {
      session = await this.lookup.verify(hash, requestId);
    } catch (error) {
      this.options.onResult?.('unavailable');
      throw error;
    }
    this.options.onResult?.(session ? 'verified' : 'rejected');
    if (generation === this.generation) {
      if (session) this.cache.set(hash, session, Math.min(this.options.ttlMs, session.expiresAt - this.now()));
      else this.cache.set(hash, null, this.negativeTtlMs);
    }
    return session;
  }

  private live(session: VerifiedSession | null): VerifiedSession | null {
    return session && session.expiresAt > this.now() ? session : null;
  }
}
