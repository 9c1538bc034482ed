import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AuthRpc } from '@timeliner/proto';
import { BusRemoteError, type EventBus } from '../../src/bus/event-bus.port.js';
import { InProcessEventBus } from '../../src/bus/in-process-event-bus.js';
import { requestRpc, serveRpc } from '../../src/bus/rpc.js';
import { recordingLogger } from './recording-logger.js';
import { currentRequestId, runWithContext } from '../../src/logging/request-context.js';

describe('typed request/reply', () => {
  let bus: EventBus;
  afterEach(() => bus.close());

  it('round-trips a session check as protobuf, carrying the request id', async () => {
    bus = new InProcessEventBus();
    const expiresAt = new Date(Date.now() + 3600_000);
    const seen: Array<{ tokenHash: string; requestId?: string }> = [];
    await serveRpc(bus, AuthRpc.VerifySession, 'auth', async (request, context) => {
      seen.push({ tokenHash: request.tokenHash, requestId: context.requestId });
      return { valid: true, userId: 'u-1', sessionId: 's-1', expiresAt: timestampFromDate(expiresAt) };
    });

    const reply = await requestRpc(bus, AuthRpc.VerifySession, { tokenHash: 'ab'.repeat(32) }, { requestId: 'req-7' });

    expect(reply).toMatchObject({ valid: true, userId: 'u-1', sessionId: 's-1' });
    expect(timestampDate(reply.expiresAt!).getTime()).toBe(expiresAt.getTime());
    expect(seen).toEqual([{ tokenHash: 'ab'.repeat(32), requestId: 'req-7' }]);
  });

  it('rejects with BusRemoteError when the responder fails or the request does not decode', async () => {
    bus = new InProcessEventBus({ logger: recordingLogger() });
    await serveRpc(bus, AuthRpc.VerifySession, 'auth', async () => {
      throw new Error('session store unavailable');
    });
    await expect(requestRpc(bus, AuthRpc.VerifySession, { tokenHash: randomUUID() })).rejects.toThrow(BusRemoteError);
    await expect(bus.request(AuthRpc.VerifySession.subject, new Uint8Array([0xff]))).rejects.toThrow(/does not decode/);
  });

  it('carries the current request id by itself, into the log context of the responder', async () => {
    bus = new InProcessEventBus();
    let inside: string | undefined;
    await serveRpc(bus, AuthRpc.VerifySession, 'auth', async () => {
      inside = currentRequestId();
      return { valid: false };
    });
    await runWithContext({ requestId: 'req-from-http-42' }, () => requestRpc(bus, AuthRpc.VerifySession, { tokenHash: 'cd'.repeat(32) }));
    expect(inside).toBe('req-from-http-42');
  });
});
