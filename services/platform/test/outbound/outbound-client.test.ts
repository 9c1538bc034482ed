import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isPublicAddress, OutboundAddressError, OutboundAddressGuard, OutboundClient, OutboundTimeoutError } from '../../src/index.js';

/** A certificate for 127.0.0.1 and localhost, made for this run. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'outbound-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const listen = async <S extends Server | TcpServer | HttpServer>(server: S): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: Server | TcpServer | HttpServer) => new Promise((resolve) => server.close(resolve));
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(OutboundAddressError);
  return (error as OutboundAddressError).reason;
};

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '0.1.2.3',
    '224.0.0.1', '239.255.255.250', '255.255.255.255', '192.0.2.1', '198.18.0.1', '240.0.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'fec0::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
    '64:ff9b::7f00:1', '2002:7f00:1::1', '2001:db8::1', '::5', 'localhost', 'not an address', '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '142.250.180.10', '172.32.0.1', '2a00:1450:4001:82b::200a', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('OutboundAddressGuard', () => {
  const guard = new OutboundAddressGuard();

  it('takes https URLs without credentials only', async () => {
    expect(await refusal(guard.check('http://8.8.8.8/push'))).toBe('protocol');
    expect(await refusal(guard.check('ftp://8.8.8.8/push'))).toBe('protocol');
    expect(await refusal(guard.check('https://user:pw@8.8.8.8/push'))).toBe('credentials');
    expect(await refusal(guard.check('not a url'))).toBe('invalid-url');
    expect((await guard.check('https://8.8.8.8/push')).href).toBe('https://8.8.8.8/push');
  });

  it('resolves the host and refuses internal addresses, however they are written', async () => {
    for (const url of [
      'https://127.0.0.1:5432/',
      'https://localhost/',
      'https://localhost./',
      'https://LOCALHOST.:47443/',
      `https://${hostname()}:47443/`,
      `https://${hostname()}.:5432/`,
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00::1]/',
      'https://0.0.0.0/',
    ]) {
      expect([url, await refusal(guard.check(url))]).toEqual([url, 'not-public']);
    }
    expect(await refusal(guard.check('https://no-such-host.invalid/'))).toBe('unresolved');
  });

  it('keeps to an allow-list of hosts when one is given', async () => {
    const listed = new OutboundAddressGuard({ allowedHosts: ['fcm.googleapis.com', '*.notify.windows.com'] });
    expect(listed.checkUrl('https://fcm.googleapis.com/fcm/send/x').host).toBe('fcm.googleapis.com');
    expect(listed.checkUrl('https://FCM.googleapis.com./wp/x').host).toBe('fcm.googleapis.com.');
    expect(listed.checkUrl('https://wns2-par02p.notify.windows.com/w/?token=x').host).toBe('wns2-par02p.notify.windows.com');
    for (const url of ['https://evil.example/fcm.googleapis.com', 'https://fcm.googleapis.com.evil.example/', 'https://notify.windows.com.evil.example/', 'https://evilnotify.windows.com/']) {
      expect(() => listed.checkUrl(url)).toThrow(OutboundAddressError);
    }
  });

  it('opens only the ranges named for tests, and refuses a setting that is not a range', () => {
    const opened = new OutboundAddressGuard({ allowedPrivateRanges: ['127.0.0.1/32'] });
    expect(opened.isAllowedAddress('127.0.0.1')).toBe(true);
    expect(opened.isAllowedAddress('::ffff:127.0.0.1')).toBe(true);
    expect(opened.isAllowedAddress('127.0.0.2')).toBe(false);
    expect(opened.isAllowedAddress('10.0.0.1')).toBe(false);
    expect(opened.openedPrivateRanges).toEqual(['127.0.0.1/32']);
    expect(() => new OutboundAddressGuard({ allowedPrivateRanges: ['true'] })).toThrow(/not a CIDR range/);
  });
});

describe('OutboundClient', () => {
  const tls = selfSigned();
  let server: Server;
  let port: number;
  const connections: string[] = [];
  let tarpit: TcpServer;
  let tarpitPort: number;
  const held: Socket[] = [];
  let proxy: HttpServer;
  let proxied = 0;

  beforeAll(async () => {
    server = createServer(tls, (request, response) => {
      if (request.url === '/redirect') response.writeHead(302, { location: `https://127.0.0.1:${port}/elsewhere` }).end();
      else if (request.url === '/long') response.writeHead(200).end('x'.repeat(1_000_000));
      else response.writeHead(201, { 'content-type': 'text/plain' }).end(`got ${request.method} ${request.url}`);
    });
    server.on('secureConnection', () => connections.push('tls'));
    server.on('request', (request) => connections.push(request.url ?? ''));
    port = await listen(server);
    tarpit = createTcpServer((socket) => void held.push(socket));
    tarpitPort = await listen(tarpit);
    proxy = createHttpServer((_request, response) => {
      proxied++;
      response.writeHead(502).end();
    });
    proxy.on('connect', (_request, socket: Socket) => {
      proxied++;
      socket.destroy();
    });
    await listen(proxy);
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await Promise.all([close(server), close(tarpit), close(proxy)]);
  });

  it('refuses a loopback address when connecting, before any byte is sent', async () => {
    const client = new OutboundClient({}, { ca: tls.cert });
    const before = connections.length;
    expect(await refusal(client.request(`https://127.0.0.1:${port}/push`, { method: 'POST', body: 'x' }))).toBe('not-public');
    // A name is checked as it is resolved for the connection, not only when it was accepted.
    expect(await refusal(client.request(`https://localhost:${port}/push`, { method: 'POST', body: 'x' }))).toBe('not-public');
    expect(await refusal(client.request(`https://${hostname()}:${port}/push`, { method: 'POST', body: 'x' }))).toBe('not-public');
    expect(connections.length).toBe(before);
    client.close();
  });

  it('reaches a range opened for tests, and nothing else', async () => {
    const client = new OutboundClient({ allowedPrivateRanges: ['127.0.0.0/8', '::1/128'] }, { ca: tls.cert });
    const answer = await client.request(`https://127.0.0.1:${port}/push?x=1`, { method: 'POST', body: 'hello' });
    expect(answer).toMatchObject({ status: 201, body: 'got POST /push?x=1' });
    expect((await client.request(`https://localhost:${port}/named`, { method: 'POST' })).status).toBe(201);
    expect(await refusal(client.request('https://10.0.0.1/push', { method: 'POST' }))).toBe('not-public');
    client.close();
  });

  it('does not follow a redirect', async () => {
    const client = new OutboundClient({ allowedPrivateRanges: ['127.0.0.1/32'] }, { ca: tls.cert });
    const answer = await client.request(`https://127.0.0.1:${port}/redirect`, { method: 'POST' });
    expect(answer.status).toBe(302);
    expect(connections).not.toContain('/elsewhere');
    client.close();
  });

  it('gives up on a host that accepts and never answers, within the time limit', async () => {
    const client = new OutboundClient({ allowedPrivateRanges: ['127.0.0.1/32'] }, { ca: tls.cert, timeoutMs: 300 });
    const started = Date.now();
    await expect(client.request(`https://127.0.0.1:${tarpitPort}/push`, { method: 'POST' })).rejects.toBeInstanceOf(OutboundTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
    client.close();
  });

  it('stops at a signal: already aborted, without connecting; aborted while waiting, at once', async () => {
    const client = new OutboundClient({ allowedPrivateRanges: ['127.0.0.1/32'] }, { ca: tls.cert });
    const before = connections.length;
    const stopped = new AbortController();
    stopped.abort(new Error('shutting down'));
    await expect(client.request(`https://127.0.0.1:${port}/push`, { method: 'POST', signal: stopped.signal })).rejects.toThrow('shutting down');
    const waiting = new AbortController();
    const started = Date.now();
    const request = client.request(`https://127.0.0.1:${tarpitPort}/push`, { method: 'POST', signal: waiting.signal });
    setTimeout(() => waiting.abort(), 100);
    await expect(request).rejects.toThrow('aborted');
    expect(Date.now() - started).toBeLessThan(2_000);
    // Let a stray 'error' of a destroyed request surface, if there were one.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connections.length).toBe(before);
    client.close();
  });

  it('reads only the first bytes of a long answer', async () => {
    const client = new OutboundClient({ allowedPrivateRanges: ['127.0.0.1/32'] }, { ca: tls.cert, maxResponseBytes: 1_024 });
    const answer = await client.request(`https://127.0.0.1:${port}/long`, { method: 'GET' });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(1_024);
    client.close();
  });

  it('takes no proxy from the environment', async () => {
    const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, https_proxy: process.env.https_proxy, NODE_USE_ENV_PROXY: process.env.NODE_USE_ENV_PROXY };
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    Object.assign(process.env, { HTTPS_PROXY: proxyUrl, https_proxy: proxyUrl, NODE_USE_ENV_PROXY: '1' });
    try {
      const client = new OutboundClient({ allowedPrivateRanges: ['127.0.0.1/32'] }, { ca: tls.cert });
      expect((await client.request(`https://127.0.0.1:${port}/direct`, { method: 'POST' })).status).toBe(201);
      expect(proxied).toBe(0);
      client.close();
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});
