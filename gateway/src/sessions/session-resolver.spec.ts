import { describe, expect, it, jest } from '@jest/globals';
import { tokenHash } from './bearer-token.js';
import { SessionCheckUnavailableError, type SessionLookup, type VerifiedSession } from './session-lookup.js';
import { SessionResolver } from './session-resolver.js';

const HOUR = 3_600_000;

function setup(answer: (hash: string) => Promise<VerifiedSession | null>, options: { ttlMs?: number } = {}) {
  let now = 1_000_000;
  const verify = jest.fn<SessionLookup['verify']>((hash) => answer(hash));
  const resolver = new SessionResolver({ verify }, { ttlMs: options.ttlMs ?? 30_000, negativeTtlMs: 5_000, now: () => now });
  return { resolver, verify, advance: (ms: number) => (now += ms), now: () => now };
}

const session = (expiresAt: number, id = 's1'): VerifiedSession => ({ userId: 'u1', sessionId: id, expiresAt });

describe('SessionResolver', () => {
  it('looks a token up by its SHA-256 and remembers the answer', async () => {
    const { resolver, verify, now } = setup(async () => session(now() + HOUR));
    expect(await resolver.resolve('tok')).toMatchObject({ userId: 'u1', sessionId: 's1' });
    expect(await resolver.resolve('tok')).toMatchObject({ userId: 'u1' });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0]![0]).toBe(tokenHash('tok'));
    expect(tokenHash('tok')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('asks again after the TTL, and never trusts a session past its expiry', async () => {
    const { resolver, verify, advance, now } = setup(async () => session(now() + 10_000));
    await resolver.resolve('tok');
    advance(9_000);
    expect(await resolver.resolve('tok')).not.toBeNull();
    expect(verify).toHaveBeenCalledTimes(1);
    advance(1_001); // past the session's expiry, within the TTL
    await resolver.resolve('tok');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('shares one lookup between concurrent requests', async () => {
    let release!: (s: VerifiedSession) => void;
    const { resolver, verify, now } = setup(() => new Promise((resolve) => (release = resolve)));
    const both = Promise.all([resolver.resolve('tok'), resolver.resolve('tok')]);
    release(session(now() + HOUR));
    expect((await both).map((s) => s?.sessionId)).toEqual(['s1', 's1']);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('remembers an invalid token only briefly', async () => {
    const { resolver, verify, advance } = setup(async () => null);
    expect(await resolver.resolve('bad')).toBeNull();
    expect(await resolver.resolve('bad')).toBeNull();
    expect(verify).toHaveBeenCalledTimes(1);
    advance(5_001);
    await resolver.resolve('bad');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('evicts at once on revocation, by token hash, session or user', async () => {
    const { resolver, verify, now } = setup(async (hash) => session(now() + HOUR, hash.slice(0, 6)));
    await resolver.resolve('a');
    resolver.revoke({ tokenHash: tokenHash('a') });
    await resolver.resolve('a');
    expect(verify).toHaveBeenCalledTimes(2);

    resolver.revoke({ sessionId: tokenHash('a').slice(0, 6) });
    await resolver.resolve('a');
    expect(verify).toHaveBeenCalledTimes(3);

    resolver.revoke({ userId: 'u1' });
    await resolver.resolve('a');
    expect(verify).toHaveBeenCalledTimes(4);
  });

  it('does not cache an answer that was in flight when a revocation arrived', async () => {
    let release!: (s: VerifiedSession) => void;
    const { resolver, verify, now } = setup(() => new Promise((resolve) => (release = resolve)));
    const first = resolver.resolve('tok');
    resolver.revoke({ sessionId: 's1' });
    release(session(now() + HOUR));
    await first;
    void resolver.resolve('tok');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('tells listeners about revocations', () => {
    const { resolver } = setup(async () => null);
    const seen: unknown[] = [];
    const stop = resolver.onRevoked((r) => seen.push(r));
    resolver.revoke({ sessionId: 's9' });
    stop();
    resolver.revoke({ sessionId: 's10' });
    expect(seen).toEqual([{ sessionId: 's9' }]);
  });

  it('passes "cannot tell" on instead of treating the caller as anonymous, and caches nothing', async () => {
    const { resolver, verify } = setup(async () => {
      throw new SessionCheckUnavailableError();
    });
    await expect(resolver.resolve('tok')).rejects.toBeInstanceOf(SessionCheckUnavailableError);
    await expect(resolver.resolve('tok')).rejects.toBeInstanceOf(SessionCheckUnavailableError);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('reads only Bearer authorization headers', async () => {
    const { resolver, verify, now } = setup(async () => session(now() + HOUR));
    expect(await resolver.resolveHeader(undefined)).toBeNull();
    expect(await resolver.resolveHeader('Basic dXNlcjpwYXNz')).toBeNull();
    expect(await resolver.resolveHeader(`Bearer ${'x'.repeat(600)}`)).toBeNull();
    expect(verify).not.toHaveBeenCalled();
    expect(await resolver.resolveHeader('bearer tok')).not.toBeNull();
  });
});
