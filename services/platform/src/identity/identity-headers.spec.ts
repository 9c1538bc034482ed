import { describe, expect, it } from '@jest/globals';
import { IDENTITY_HEADERS, identityKeyring, signIdentity, signingKey, stripInternalHeaders, verifyIdentity } from './identity-headers.js';

const secret = 'x'.repeat(40);
const req = { requestId: 'req-12345678', method: 'GET', url: '/api/auth/me?x=1' };

describe('identity headers', () => {
  it('round-trips a signed identity', () => {
    const headers = signIdentity(secret, { userId: 'u1', sessionId: 's1', clientIp: '10.0.0.1' }, req);
    expect(verifyIdentity(secret, headers, req)).toEqual({ ok: true, identity: { userId: 'u1', sessionId: 's1', clientIp: '10.0.0.1' } });
  });

  it('signs anonymous callers too', () => {
    const headers = signIdentity(secret, { clientIp: '10.0.0.1' }, req);
    expect(verifyIdentity(secret, headers, req)).toEqual({ ok: true, identity: { clientIp: '10.0.0.1' } });
  });

  it('refuses a changed user, another route, another secret, a missing signature', () => {
    const headers = signIdentity(secret, { userId: 'u1', clientIp: '10.0.0.1' }, req);
    expect(verifyIdentity(secret, { ...headers, [IDENTITY_HEADERS.userId]: 'u2' }, req)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyIdentity(secret, headers, { ...req, url: '/api/auth/profile' })).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyIdentity(secret, headers, { ...req, method: 'DELETE' })).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyIdentity('y'.repeat(40), headers, req)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyIdentity(secret, { [IDENTITY_HEADERS.userId]: 'u1' }, req)).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('accepts, during a rotation, what either key signed, and signs with the current one only', () => {
    const next = 'n'.repeat(40);
    const signedOld = signIdentity(secret, { userId: 'u1', clientIp: '10.0.0.1' }, req);
    const signedNew = signIdentity(next, { userId: 'u1', clientIp: '10.0.0.1' }, req);
    // Phase 1: every service learns the next key while gateways still sign with the old one.
    const learning = identityKeyring(secret, next);
    expect(signingKey(learning)).toBe(secret);
    for (const headers of [signedOld, signedNew]) expect(verifyIdentity(learning, headers, req)).toMatchObject({ ok: true });
    // Phase 2: gateways sign with the next key; the old one is still accepted from pods not yet rolled.
    const rolled = identityKeyring(next, secret);
    expect(signingKey(rolled)).toBe(next);
    for (const headers of [signedOld, signedNew]) expect(verifyIdentity(rolled, headers, req)).toMatchObject({ ok: true });
    // Done: the old key opens nothing any more, and a key never given is refused throughout.
    expect(verifyIdentity(identityKeyring(next, undefined), signedOld, req)).toMatchObject({ ok: false, reason: 'bad-signature' });
    const forged = signIdentity('f'.repeat(40), { userId: 'u1', clientIp: '10.0.0.1' }, req);
    for (const keys of [learning, rolled]) expect(verifyIdentity(keys, forged, req)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('reads INTERNAL_SECRET_ACCEPTED as a list, without the current key or blanks', () => {
    expect(identityKeyring(secret, undefined)).toBe(secret);
    expect(identityKeyring(secret, '')).toBe(secret);
    expect(identityKeyring(secret, secret)).toBe(secret);
    expect(identityKeyring(secret, `${'a'.repeat(32)}, ${'b'.repeat(32)},`)).toEqual({ current: secret, accepted: ['a'.repeat(32), 'b'.repeat(32)] });
  });

  it('refuses stale signatures (replay)', () => {
    const headers = signIdentity(secret, { userId: 'u1', clientIp: '1.1.1.1' }, req, Date.now() - 120_000);
    expect(verifyIdentity(secret, headers, req)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('strips client-sent internal headers, any case', () => {
    const headers: Record<string, unknown> = { 'x-tl-user-id': 'admin', 'X-TL-Identity-Sig': 'abc', accept: '*/*' };
    stripInternalHeaders(headers);
    expect(headers).toEqual({ accept: '*/*' });
  });
});
