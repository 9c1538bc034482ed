import { describe, expect, it } from '@jest/globals';
import { upstreamFailure } from './upstream-failure.js';

const withCode = (code: string, cause?: Error) => Object.assign(new Error(code, { cause }), { code });

describe('upstreamFailure', () => {
  it('answers 504 for timeouts, wherever the code sits in the cause chain', () => {
    expect(upstreamFailure(withCode('FST_REPLY_FROM_GATEWAY_TIMEOUT')).status).toBe(504);
    expect(upstreamFailure(withCode('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', withCode('UND_ERR_BODY_TIMEOUT'))).status).toBe(504);
  });

  it('answers 502 for everything else', () => {
    expect(upstreamFailure(withCode('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', withCode('ECONNREFUSED')))).toMatchObject({ status: 502, reason: 'unreachable' });
    expect(upstreamFailure(new Error('?')).status).toBe(502);
  });
});
