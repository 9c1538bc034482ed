import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { openTestBus, type TestBus } from './support/test-bus.js';

const CSP =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data: blob:;media-src 'self' blob:;connect-src 'self';" +
  "font-src 'self';object-src 'none';base-uri 'none';frame-ancestors 'none';form-action 'self';worker-src 'self';manifest-src 'self'";

describe('gateway security', () => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  let webDist: string;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwsecurity');
    upstream = await startFakeUpstream(SECRET);
    webDist = await mkdtemp(join(tmpdir(), 'gw-web-'));
    await writeFile(join(webDist, 'index.html'), '<!doctype html><html><head><title>app</title></head><body></body></html>');
    gateway = await startGateway({
      bus: bus.gateway,
      services: { auth: upstream.url },
      webDist,
      env: { RATE_LIMIT_MAX: '12', AUTH_RATE_LIMIT_MAX: '2', AUTH_RATE_LIMIT_WINDOW_SECONDS: '60' },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await bus?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it.each([
    ['a proxied API answer', '/api/auth/echo', 200],
    ['the web app', '/', 200],
    ['an error', '/api/unknown', 404],
  ])('puts the security headers on %s', async (_what, path, status) => {
    const response = await request(gateway.url).get(path).expect(status);
    // The HTML page adds a per-response nonce for styles; everything else is the same policy.
    expect(response.headers['content-security-policy']!.replace(/;style-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/, ";style-src 'self'")).toBe(CSP);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['permissions-policy']).toMatch(/^camera=\(self\), microphone=\(self\)/);
    expect(response.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{8,100}$/);
  });

  it('lets any site frame the embed player, and only it', async () => {
    const embed = await request(gateway.url).get('/embed/timeline/0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11').set('accept', 'text/html').expect(200);
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *;');
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.text).toContain('<title>app</title>');
    for (const path of ['/', '/watch/0b6f0c3e-6a3f-4d5e-9a52-0d2f8e8d6c11', '/embed/timeline/x/extra', '/embed/timelines/x', '/studio?next=/embed/timeline/x']) {
      const page = await request(gateway.url).get(path).set('accept', 'text/html').expect(200);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none';");
      expect(page.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('gives the HTML page a fresh style nonce, the same in its header and its meta tag', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const response = await request(gateway.url).get('/').expect(200);
      const fromHeader = /'nonce-([A-Za-z0-9+/=]{24})'/.exec(response.headers['content-security-policy']!)?.[1];
      const fromMeta = /<meta name="csp-nonce" content="([^"]+)">/.exec(response.text)?.[1];
      expect(fromHeader).toBeDefined();
      expect(fromMeta).toBe(fromHeader);
      expect(response.headers['content-security-policy']).toContain("script-src 'self';");
      nonces.add(fromHeader!);
    }
    expect(nonces.size).toBe(2);
  });

  it('limits sign-in attempts per address more tightly, answering 429 with Retry-After', async () => {
    await request(gateway.url).post('/api/auth/login').send({ login: 'a', password: 'b' }).expect(200);
    await request(gateway.url).post('/api/auth/register').send({ username: 'a' }).expect(200);
    const refused = await request(gateway.url).post('/api/auth/login').send({ login: 'a', password: 'b' }).expect(429);
    expect(refused.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/^Too many requests, try again in /) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-security-policy']).toBe(CSP);
  });

  it('limits API requests per address, but never the web app, health probes or metrics scrapes', async () => {
    let status = 200;
    for (let i = 0; i < 15 && status !== 429; i++) status = (await request(gateway.url).get('/api/auth/echo')).status;
    expect(status).toBe(429);
    const refused = await request(gateway.url).get('/api/auth/echo').expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).toMatchObject({ statusCode: 429 });
    // A browser opening an address (a link to a download, a typed URL) gets the app's page, never raw JSON.
    const seconds = Number(refused.headers['retry-after']);
    for (const navigation of [{ 'sec-fetch-mode': 'navigate', accept: 'text/html,*/*' }, { accept: 'text/html,application/xhtml+xml' }]) {
      const page = await request(gateway.url).get('/api/auth/echo').set(navigation).expect(429);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['retry-after']).toBeDefined();
      expect(page.text).toContain('<title>Too many requests · Timeliner</title>');
      expect(page.text).toMatch(new RegExp(`Try again in (${seconds}|${seconds - 1}) s`));
      expect(page.text).not.toContain('"statusCode"');
      const nonce = /<style nonce="([^"]+)">/.exec(page.text)?.[1];
      expect(page.headers['content-security-policy']).toContain(`'nonce-${nonce}'`);
    }
    // A script's fetch keeps the JSON answer it can read.
    await request(gateway.url).get('/api/auth/echo').set({ 'sec-fetch-mode': 'cors', accept: 'text/html' }).expect('content-type', /application\/json/).expect(429);
    // A first visit alone makes about 80 requests for the app's files (with the service worker's
    // precache): counted against the API's budget, a few visits from one office exhausted it.
    for (let i = 0; i < 15; i++) await request(gateway.url).get('/').expect(200);
    await request(gateway.url).get('/studio').set('accept', 'text/html').expect(200);
    await request(gateway.internalUrl).get('/health/live').expect(200);
    await request(gateway.internalUrl).get('/metrics').expect(200);
  });

});
