import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type RunningGateway, startGateway } from './support/start-gateway.js';
import { eventually, openTestBus, type TestBus } from './support/test-bus.js';

/**
 * Clients that hold connections without sending: a body that stops mid-way is cut after one
 * window with 408 and takes its upstream request with it; a slow but steady body passes; one
 * address cannot open more than its share of connections.
 */
describe('slow and silent clients', () => {
  let bus: TestBus;
  let gateway: RunningGateway;
  let upstream: Server;
  const seen: Array<{ url: string; bytes: number; ended: boolean; aborted: boolean }> = [];

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwslow');
    upstream = createServer((req: IncomingMessage, res) => {
      const entry = { url: req.url ?? '', bytes: 0, ended: false, aborted: false };
      seen.push(entry);
      req.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
      req.on('end', () => {
        entry.ended = true;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes: entry.bytes }));
      });
      req.on('close', () => {
        if (!entry.ended) entry.aborted = true;
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await startGateway({
      bus: bus.gateway,
      services: { auth: upstreamUrl },
      env: { BODY_TIMEOUT_SECONDS: '1', BODY_MIN_BYTES_PER_SECOND: '200', MAX_CONNECTIONS_PER_ADDRESS: '6' },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
    await bus?.close();
  });

  const port = () => Number(new URL(gateway.url).port);
  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(port(), '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });
  const collect = (socket: Socket) => {
    let text = '';
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    return { text: () => text, closed };
  };

  it('answers 408 to a body that stops arriving, closes the connection, and ends the upstream request', async () => {
    const socket = await open();
    const answer = collect(socket);
    const started = Date.now();
    socket.write('POST /api/auth/stalled HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100\r\n\r\n123456789');
    await answer.closed;
    const seconds = (Date.now() - started) / 1000;
    expect(answer.text()).toMatch(/^HTTP\/1\.1 408/);
    expect(answer.text()).toContain('The request body arrived too slowly');
    expect(seconds).toBeLessThan(5);
    await eventually(() => expect(seen.find((s) => s.url === '/api/auth/stalled')).toMatchObject({ bytes: 9, ended: false, aborted: true }));
  });

  it('lets a slow but steady body through (above the minimum rate, for longer than the window)', async () => {
    const socket = await open();
    const answer = collect(socket);
    const total = 1200;
    socket.write(`POST /api/auth/steady HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${total}\r\nConnection: close\r\n\r\n`);
    // 100 bytes every 250 ms = 400 B/s for 3 s: twice the minimum, three windows long.
    for (let sent = 0; sent < total; sent += 100) {
      socket.write('x'.repeat(100));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await answer.closed;
    expect(answer.text()).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.text()).toContain(`{"bytes":${total}}`);
  }, 15_000);

  it('refuses connections from one address beyond its limit, and accepts again once some close', async () => {
    const sockets = await Promise.all(Array.from({ length: 6 }, open));
    const extra = await open();
    const refused = collect(extra);
    await refused.closed;
    expect(refused.text()).toBe('');
    sockets.pop()!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await open();
    const answer = collect(again);
    again.write('GET /api/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await answer.closed;
    expect(answer.text()).toMatch(/^HTTP\/1\.1 404/);
    for (const socket of [...sockets, again]) socket.destroy();
  });
});
