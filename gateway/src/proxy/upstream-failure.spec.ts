import { describe, expect, it } from '@jest/globals';
import { upstreamFailure } from './upstream-failure.js';

const withCode = (code: string, cause?: Error) => Object.assign(new Error(code, { cause }), { code });

describe('upstreamFailure', () => {
  it('answers 504 for timeouts, wherever the code sits in the cause chain', () => {
    expect(upstreamFailure(withCode('FST_REPLY_FROM_GATEWAY_TIMEOUT')).status).toBe(504);
    expect(upstreamFailure(withCode('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', withCode('UND_ERR_BODY_TIMEOUT'))).status).toBe(504);
  });

  it('answers 503 for everything else, to be tried again', () => {
    expect(upstreamFailure(withCode('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', withCode('ECONNREFUSED')))).toMatchObject({ status: 503, reason: 'unreachable', retryAfter: 2 });
    expect(upstreamFailure(new Error('?')).status).toBe(503);
  });

  it('answers 423 to a tus client asking where to resume, so it retries instead of starting over', () => {
    const refused = withCode('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', withCode('ECONNREFUSED'));
    expect(upstreamFailure(refused, { method: 'HEAD', path: '/api/uploads/4f1c' })).toMatchObject({ status: 423, retryAfter: 1 });
    expect(upstreamFailure(withCode('UND_ERR_HEADERS_TIMEOUT'), { method: 'HEAD', path: '/api/uploads/4f1c' }).status).toBe(423);
    expect(upstreamFailure(refused, { method: 'PATCH', path: '/api/uploads/4f1c' }).status).toBe(503);
    expect(upstreamFailure(refused, { method: 'HEAD', path: '/api/uploads' }).status).toBe(503);
    expect(upstreamFailure(refused, { method: 'HEAD', path: '/api/videos/4f1c/stream' }).status).toBe(503);
  });
});
