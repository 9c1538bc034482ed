import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifyIdentity } from '@timeliner/platform';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { collectGarbage, sampleMemory } from './support/memory.js';
import { UploadPeer } from './support/upload-peer.js';
import { closedPortUrl, type FakeUpstream, FILE, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { BUS_KINDS, eventually, FakeAuthResponder, openTestBus, type TestBus } from './support/test-bus.js';

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string>;
  identity: { ok: boolean; identity?: { userId?: string; sessionId?: string; clientIp: string } };
}

describe.each(BUS_KINDS)('gateway callers over the %s bus', (kind) => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  let auth: FakeAuthResponder;

  beforeAll(async () => {
    bus = await openTestBus(kind, 'gwcallers');
    upstream = await startFakeUpstream(SECRET);
    auth = await new FakeAuthResponder(bus.services).start();
    gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url } });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await bus?.close();
  });

  const echo = async (headers: Record<string, string> = {}): Promise<Echo> => {
    const response = await request(gateway.url).get('/api/auth/echo?x=1').set(headers).expect(200);
    return response.body as Echo;
  };

  it('forwards anonymously, with a verifiable identity, the request id and none of the client’s internal headers', async () => {
    const body = await echo({ 'x-tl-user-id': 'forged', 'X-TL-Session-Id': 'forged', 'x-tl-identity-sig': 'forged', 'x-request-id': 'client-req-0001' });
    expect(body.url).toBe('/api/auth/echo?x=1');
    expect(body.headers['x-request-id']).toBe('client-req-0001');
    expect(body.identity).toEqual({ ok: true, identity: { clientIp: '127.0.0.1' } });
    expect(body.headers['x-tl-user-id']).toBeUndefined();
    expect(body.headers['x-tl-session-id']).toBeUndefined();
  });

  it('signs the user and session of a valid token, asking the auth service once for two requests', async () => {
    const session = auth.signIn();
    const before = auth.calls;
    for (let i = 0; i < 2; i++) {
      const body = await echo({ authorization: `Bearer ${session.token}`, 'x-tl-user-id': 'forged' });
      expect(body.identity).toEqual({ ok: true, identity: { userId: session.userId, sessionId: session.sessionId, clientIp: '127.0.0.1' } });
      expect(body.headers.authorization).toBeUndefined();
      // The signature is checkable by any service holding the secret, for this method and path only.
      const { headers } = body;
      expect(verifyIdentity(SECRET, headers, { requestId: headers['x-request-id']!, method: 'GET', url: '/api/auth/echo' }).ok).toBe(true);
      expect(verifyIdentity(SECRET, headers, { requestId: headers['x-request-id']!, method: 'DELETE', url: '/api/auth/echo' }).ok).toBe(false);
    }
    expect(auth.calls - before).toBe(1);
  });

  it('forgets a session at once when it is revoked', async () => {
    const session = auth.signIn();
    const bearer = { authorization: `Bearer ${session.token}` };
    expect((await echo(bearer)).identity.identity?.userId).toBe(session.userId);
    const before = auth.calls;
    await auth.revoke(session);
    await eventually(async () => expect((await echo(bearer)).identity.identity?.userId).toBeUndefined());
    expect(auth.calls).toBeGreaterThan(before);
  });

  it('compresses JSON answers of 1 KB and more with brotli or gzip as the client accepts, and nothing else', async () => {
    const raw = (path: string, acceptEncoding?: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = httpRequest(`${gateway.url}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    const big = await raw('/api/auth/items?n=100', 'gzip, deflate, br');
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    const items = JSON.parse(brotliDecompressSync(big.body).toString()) as unknown[];
    expect(items).toHaveLength(100);
    expect(big.body.length).toBeLessThan(JSON.stringify(items).length / 4);

    const gzipped = await raw('/api/auth/items?n=100', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzipped.body).toString())).toEqual(items);

    // Small answers, clients that accept nothing, and what is not JSON go as they are.
    const small = await raw('/api/auth/items?n=2', 'gzip, br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toHaveLength(2);
    const plain = await raw('/api/auth/items?n=100');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(items);
    const file = await raw('/api/auth/file', 'gzip, br');
    expect(file.headers['content-encoding']).toBeUndefined();
    expect(file.body.equals(FILE)).toBe(true);
  });

  it('limits each person’s content writes with 429 and Retry-After', async () => {
    const limited = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { CONTENT_RATE_LIMIT_MAX: '3' } });
    try {
      const first = auth.signIn();
      const second = auth.signIn();
      const post = (token: string, path = '/api/timelines/8f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b/comments') =>
        request(limited.url).post(path).set('authorization', `Bearer ${token}`).send({ content: 'hi' });
      for (let i = 0; i < 3; i++) expect((await post(first.token)).status).toBe(200);
      const refused = await post(first.token, '/api/timelines');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/^You are posting too fast, try again in \d+ seconds$/);
      // Someone else, and the same person's other writes, are not held back.
      expect((await post(second.token)).status).toBe(200);
      expect((await post(first.token, '/api/timelines/8f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b/views')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits writes without a session per address (views, downloads, shares), not sign-in or signed-in writes', async () => {
    const limited = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { ANONYMOUS_WRITE_LIMIT_MAX: '3' } });
    try {
      const views = '/api/timelines/8f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b/views';
      for (let i = 0; i < 3; i++) expect((await request(limited.url).post(views).send({ watchTime: 1 })).status).toBe(200);
      const refused = await request(limited.url).post(views).set('user-agent', 'another browser').send({ watchTime: 1 });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/^Too many requests from this address, try again in \d+ seconds$/);
      // Reads, sign-in and a signed-in person's writes go on.
      expect((await request(limited.url).get('/api/auth/echo')).status).toBe(200);
      expect((await request(limited.url).post('/api/auth/echo').send({})).status).toBe(200);
      const session = auth.signIn();
      expect((await request(limited.url).post(views).set('authorization', `Bearer ${session.token}`).send({ watchTime: 1 })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('checks every write afresh, so a token revoked a moment ago changes nothing while reads may use the cache', async () => {
    const session = auth.signIn();
    const bearer = { authorization: `Bearer ${session.token}` };
    expect((await echo(bearer)).identity.identity?.userId).toBe(session.userId);
    auth.forget(session);
    const write = await request(gateway.url).post('/api/auth/echo').set(bearer).send({}).expect(200);
    expect((write.body as Echo).identity.identity?.userId).toBeUndefined();
  });

  it('forgets the token before it answers a logout', async () => {
    const session = auth.signIn();
    const bearer = { authorization: `Bearer ${session.token}` };
    expect((await echo(bearer)).identity.identity?.userId).toBe(session.userId);
    // The revocation event has not arrived; the logout's own answer is what drops the token here.
    auth.forget(session);
    await request(gateway.url).post('/api/auth/logout').set(bearer).expect(200);
    expect((await echo(bearer)).identity.identity?.userId).toBeUndefined();
  });

  it('continues anonymously with an invalid token', async () => {
    const body = await echo({ authorization: 'Bearer not-a-real-token' });
    expect(body.identity).toEqual({ ok: true, identity: { clientIp: '127.0.0.1' } });
  });

  it('answers 503 when the auth service does not answer, and recovers when it does', async () => {
    await auth.stop();
    try {
      const response = await request(gateway.url).get('/api/auth/echo').set('authorization', `Bearer ${auth.signIn().token}`).expect(503);
      expect(response.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Authentication is temporarily unavailable, try again shortly' });
      expect(response.headers['retry-after']).toBe('2');
      // Anonymous requests do not need the auth service.
      await request(gateway.url).get('/api/auth/echo').expect(200);
    } finally {
      await auth.start();
    }
    const session = auth.signIn();
    expect((await echo({ authorization: `Bearer ${session.token}` })).identity.identity?.userId).toBe(session.userId);
  });
});

describe('gateway proxy', () => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwproxy');
    upstream = await startFakeUpstream(SECRET);
    gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { UPSTREAM_TIMEOUT_SECONDS: '1' } });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await bus?.close();
  });

  it('forwards method, path, query and body', async () => {
    const response = await request(gateway.url).put('/api/auth/echo?a=1&b=two').send({ hello: 'world' }).expect(200);
    expect(response.body).toMatchObject({ method: 'PUT', url: '/api/auth/echo?a=1&b=two' });
    expect(response.body.headers['content-type']).toBe('application/json');
  });

  it('answers 413 to a JSON body over 1 MiB without forwarding it, and forwards one just under', async () => {
    const big = JSON.stringify({ content: 'a'.repeat(2 * 1024 * 1024) });
    const refused = await request(gateway.url).post('/api/auth/echo').set('content-type', 'application/json').send(big).expect(413);
    expect(refused.body).toMatchObject({ statusCode: 413, message: 'A JSON body may be at most 1 MiB' });
    const fits = JSON.stringify({ content: 'a'.repeat(1024 * 1024 - 20) });
    await request(gateway.url).post('/api/auth/echo').set('content-type', 'application/json; charset=utf-8').send(fits).expect(200);
  });

  it('passes Range requests and 206 answers through', async () => {
    const response = await request(gateway.url)
      .get('/api/auth/file')
      .set('range', 'bytes=10-19')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(206);
    expect(response.headers['content-range']).toBe('bytes 10-19/100');
    expect(response.headers['content-length']).toBe('10');
    expect(Buffer.compare(response.body as Buffer, FILE.subarray(10, 20))).toBe(0);
  });

  it('answers 404 in the error shape for an /api path no service owns, without forwarding it', async () => {
    const response = await request(gateway.url).get('/api/nothing/here').expect(404);
    expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /api/nothing/here' });
  });

  it('refuses paths that would escape their route', async () => {
    const response = await request(gateway.url).get('/api/auth/..%2f..%2fmetrics').expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, message: 'Malformed request path' });
  });

  it('answers 504 when the upstream is too slow', async () => {
    const response = await request(gateway.url).get('/api/auth/slow').expect(504);
    expect(response.body).toEqual({ statusCode: 504, error: 'Gateway Timeout', message: 'The service did not answer in time' });
  });

  it('answers 503 with Retry-After for a service that is down, and stays ready serving the others', async () => {
    const down = await startGateway({ bus: bus.gateway, services: { auth: upstream.url, timelines: await closedPortUrl() } });
    try {
      const response = await request(down.url).get('/api/timelines').expect(503);
      expect(response.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'The service is unavailable, try again shortly' });
      expect(response.headers['retry-after']).toBe('2');
      await request(down.url).get('/api/auth/echo').expect(200);
      expect((await request(down.internalUrl).get('/health/ready').expect(200)).body).toEqual({ status: 'ok', checks: { bus: 'up', listening: 'up' } });
    } finally {
      await down.close();
    }
  });

  it('tells a tus client asking where to resume to retry (423) while the upload service is down', async () => {
    const down = await startGateway({ bus: bus.gateway, services: { auth: upstream.url, media: await closedPortUrl() } });
    try {
      const head = await request(down.url).head('/api/uploads/5b1d2c1e-0f7e-4a51-9a39-2c6c1f0f4d11').set('tus-resumable', '1.0.0').expect(423);
      expect(head.headers['retry-after']).toBe('1');
      // Anything else keeps its 503.
      await request(down.url).patch('/api/uploads/5b1d2c1e-0f7e-4a51-9a39-2c6c1f0f4d11').set('tus-resumable', '1.0.0').expect(503);
      await request(down.url).get('/api/timelines/5b1d2c1e-0f7e-4a51-9a39-2c6c1f0f4d11/videos').expect(503);
    } finally {
      await down.close();
    }
  });

  it('closes the connection when the upload service fails mid-body, so the client’s next request is answered at once', async () => {
    // An upload service that dies after the first megabyte of a PATCH, and answers a HEAD.
    const crashing = createServer((req, res) => {
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'upload-offset': '0', 'tus-resumable': '1.0.0' }).end();
        return;
      }
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 1024 * 1024) req.socket.destroy();
      });
    });
    await new Promise<void>((resolve) => crashing.listen(0, '127.0.0.1', resolve));
    const media = `http://127.0.0.1:${(crashing.address() as AddressInfo).port}`;
    const viaGateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url, media } });
    // One keep-alive connection at most, as a browser's or tus-js-client's agent would reuse it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, body?: Buffer) =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = httpRequest(`${viaGateway.url}/api/uploads/5b1d2c1e-0f7e-4a51-9a39-2c6c1f0f4d11`, {
          method,
          agent,
          headers: { 'tus-resumable': '1.0.0', ...(body ? { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' } : {}) },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const patch = await send('PATCH', Buffer.alloc(8 * 1024 * 1024, 1));
      expect(patch).toEqual({ status: 503, connection: 'close' });
      const started = Date.now();
      expect((await send('HEAD')).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      agent.destroy();
      await viaGateway.close();
      await new Promise((resolve) => crashing.close(resolve));
    }
  });

  it('finishes requests in flight when it shuts down, and refuses new ones', async () => {
    const closing = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { UPSTREAM_TIMEOUT_SECONDS: '5' } });
    const inFlight = request(closing.url).get('/api/auth/slow');
    const answer = inFlight.then((response) => response);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = closing.close();
    expect((await answer).status).toBe(200);
    await closed;
    await expect(request(closing.url).get('/api/auth/echo')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('reports liveness, readiness and metrics', async () => {
    await request(gateway.internalUrl).get('/health/live').expect(200, { status: 'ok' });
    const ready = await request(gateway.internalUrl).get('/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { bus: 'up', listening: 'up' } });
    const metrics = await request(gateway.internalUrl).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/gateway_upstream_duration_seconds_count\{service="auth",route="\/api\/auth\/\*",method="GET",status="206"/);
    expect(metrics.text).toMatch(/gateway_upstream_failures_total\{service="auth",route="\/api\/auth\/\*",reason="timeout"\} 1/);
  });
});

describe('gateway upload streaming', () => {
  let bus: TestBus;
  let peer: UploadPeer;
  let gateway: RunningGateway;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwupload');
    // Client and upstream run in another process: this one holds only the gateway.
    peer = await UploadPeer.start();
    gateway = await startGateway({ bus: bus.gateway, services: { auth: peer.upstreamUrl } });
  });

  afterAll(async () => {
    await gateway?.close();
    await peer?.stop();
    await bus?.close();
  });

  it('streams a 50 MB upload through in constant memory, byte for byte', async () => {
    const url = `${gateway.url}/api/auth/upload`;
    await peer.upload(url, 8 * 1024 * 1024); // warm up pools and code paths so the baseline is steady
    const size = 50 * 1024 * 1024;
    // Collecting often keeps the garbage of passed-through chunks (V8 lets tens of MB of dead
    // socket buffers pile up before it collects) from masking what is actually retained. Not too
    // often: in a jest worker with a large heap, each full collection stalls the gateway under test.
    const memory = sampleMemory(collectGarbage(), 100);
    const started = Date.now();
    const result = await peer.upload(url, size);
    const { rssGrowthMb, liveGrowthMb } = memory.stop();

    expect(result.status).toBe(200);
    expect(result.answer).toEqual({ bytes: size, sha256: result.sha256 });
    // A gateway that held the body would retain ~50 MB; one that streams it holds what is in
    // flight at the moment of a sample (socket and proxy buffers: up to ~13 MB seen under load).
    expect(liveGrowthMb).toBeLessThan(25);
    expect(rssGrowthMb).toBeLessThan(40);
    process.stdout.write(
      `${size >> 20} MB upload through the gateway: ${Date.now() - started} ms, RSS +${rssGrowthMb.toFixed(1)} MB, live +${liveGrowthMb.toFixed(1)} MB\n`,
    );
  }, 90_000);
});
