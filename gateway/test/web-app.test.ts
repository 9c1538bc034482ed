import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { openTestBus, type TestBus } from './support/test-bus.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-3f2a9c.js"></script></head></html>';
const APP = 'console.log("timeliner");'.repeat(20);

/** The page as built, without the per-response nonce the gateway adds. */
const withoutNonce = (html: string) => html.replace(/\n\s*<meta name="csp-nonce" content="[^"]+">/, '');

describe('gateway web app', () => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  let webDist: string;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwweb');
    upstream = await startFakeUpstream(SECRET);
    webDist = await mkdtemp(join(tmpdir(), 'gw-web-'));
    await mkdir(join(webDist, 'assets'));
    await writeFile(join(webDist, 'index.html'), INDEX);
    await writeFile(join(webDist, 'assets', 'app-3f2a9c.js'), APP);
    await writeFile(join(webDist, 'assets', 'app-3f2a9c.js.gz'), gzipSync(APP));
    await writeFile(join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await writeFile(join(webDist, 'manifest.webmanifest'), '{"name":"Timeliner"}');
    await writeFile(join(webDist, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await writeFile(join(webDist, '.env'), 'SECRET=1');
    gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, webDist });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await bus?.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('serves index.html at / for revalidation on every load, with a style nonce', async () => {
    const response = await request(gateway.url).get('/').expect(200);
    expect(withoutNonce(response.text)).toBe(INDEX);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('caches hashed assets for good, and serves their precompressed form', async () => {
    const response = await request(gateway.url).get('/assets/app-3f2a9c.js').set('accept-encoding', 'identity').expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(response.text).toBe(APP);
    const gzipped = await request(gateway.url).get('/assets/app-3f2a9c.js').set('accept-encoding', 'gzip, br').expect(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gzipped.text).toBe(APP);
  });

  it('serves the service worker for the whole origin, never stale', async () => {
    const response = await request(gateway.url).get('/sw.js').expect(200);
    expect(response.headers['service-worker-allowed']).toBe('/');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toMatch(/javascript/);
  });

  it('serves the manifest, never stale', async () => {
    const response = await request(gateway.url).get('/manifest.webmanifest').expect(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
  });

  it('answers page loads of app routes with index.html', async () => {
    const response = await request(gateway.url).get('/studio/42?tab=videos').set('accept', 'text/html,application/xhtml+xml').expect(200);
    expect(withoutNonce(response.text)).toBe(INDEX);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it.each(['/api/nothing', '/health/nothing', '/metrics/nothing', '/ws/nothing'])('never answers %s with the app', async (path) => {
    const response = await request(gateway.url).get(path).set('accept', 'text/html').expect(404);
    expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers a missing file with 404 JSON, not the app', async () => {
    const response = await request(gateway.url).get('/assets/missing-0000.js').set('accept', '*/*').expect(404);
    expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /assets/missing-0000.js' });
  });

  it('serves nothing outside the build, nor its dotfiles', async () => {
    await request(gateway.url).get('/.env').set('accept', '*/*').expect(404);
    await request(gateway.url).get('/assets/..%2f..%2fetc%2fpasswd').set('accept', '*/*').expect((res) => expect([400, 403, 404]).toContain(res.status));
  });

  it('passes ranges of static files', async () => {
    const response = await request(gateway.url).get('/icon-192.png').set('range', 'bytes=1-2').expect(206);
    expect(response.headers['content-range']).toBe('bytes 1-2/4');
  });

  it('says plainly when the web app is not built', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'gw-empty-'));
    const unbuilt = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, webDist: join(empty, 'dist') });
    try {
      const response = await request(unbuilt.url).get('/').expect(503);
      expect(response.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
      expect(response.body.message).toMatch(/not built.*npm run build/);
      await request(unbuilt.url).get('/studio').set('accept', 'text/html').expect(503);
    } finally {
      await unbuilt.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
