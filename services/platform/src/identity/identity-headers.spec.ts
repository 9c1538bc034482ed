import { describe, expect, it } from '@jest/globals';
import { IDENTITY_HEADERS, signIdentity, stripInternalHeaders, verifyIdentity } from './identity-headers.js';

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
