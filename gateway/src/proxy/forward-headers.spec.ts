import { describe, expect, it } from '@jest/globals';
import { clientResponseHeaders, upstreamRequestHeaders } from './forward-headers.js';

describe('forward headers', () => {
  it('strips hop-by-hop, internal and client forwarding headers, and the bearer token', () => {
    const out = upstreamRequestHeaders(
      {
        host: 'upstream:3000',
        connection: 'keep-alive',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'proxy-authorization': 'x',
        authorization: 'Bearer secret',
        'x-tl-user-id': 'forged',
        'X-TL-Identity-Sig': 'forged',
        'x-forwarded-for': '6.6.6.6',
        'x-request-id': 'client-chosen',
        'content-type': 'video/mp4',
        range: 'bytes=0-1',
        cookie: 'a=b',
      },
      { requestId: 'req-12345678', identity: { 'x-tl-client-ip': '10.0.0.1', 'x-tl-identity-sig': 'sig' }, host: 'app.example', protocol: 'https' },
    );
    expect(out).toEqual({
      host: 'upstream:3000',
      'content-type': 'video/mp4',
      range: 'bytes=0-1',
      cookie: 'a=b',
      'x-request-id': 'req-12345678',
      'x-forwarded-host': 'app.example',
      'x-forwarded-proto': 'https',
      'x-tl-client-ip': '10.0.0.1',
      'x-tl-identity-sig': 'sig',
    });
  });

  it('passes upstream answers on without connection or internal headers', () => {
    expect(
      clientResponseHeaders({ 'content-range': 'bytes 0-1/10', connection: 'close', 'transfer-encoding': 'chunked', 'x-tl-debug': '1', etag: '"e"' }),
    ).toEqual({ 'content-range': 'bytes 0-1/10', etag: '"e"' });
  });
});
