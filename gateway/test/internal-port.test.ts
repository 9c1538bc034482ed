import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { createLogger, loadConfig } from '@timeliner/platform';
import { GatewayConfig } from '../src/gateway.config.js';
import { createGateway } from '../src/gateway.js';
import { internalUrlOf } from '../src/http/internal-port.js';
import { type FakeUpstream, startFakeUpstream } from './support/fake-upstream.js';
import { type RunningGateway, SECRET, startGateway } from './support/start-gateway.js';
import { openTestBus, type TestBus } from './support/test-bus.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe('probes and metrics on the internal port', () => {
  let bus: TestBus;
  let upstream: FakeUpstream;
  let gateway: RunningGateway;
  let internal: string;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwinternal');
    upstream = await startFakeUpstream(SECRET);
    const port = await freePort();
    internal = `http://127.0.0.1:${port}`;
    gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { INTERNAL_PORT: String(port), HOST: '127.0.0.1' } });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await bus?.close();
  });

  it('answers 404 for /metrics and /health on the public port, and serves them on the internal one', async () => {
    for (const path of ['/metrics', '/health/ready', '/health/live', '/metrics?x=1']) {
      const res = await fetch(`${gateway.url}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
    }
    const metrics = await fetch(`${internal}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('http_request_duration_seconds');
    const ready = await fetch(`${internal}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok' });
    expect((await fetch(`${internal}/health/live`)).status).toBe(200);
  });

  it('serves nothing else on the internal port, and the API as usual on the public one', async () => {
    expect((await fetch(`${internal}/api/auth/echo`)).status).toBe(404);
    expect((await fetch(`${internal}/`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/api/auth/echo`)).status).toBe(200);
  });
});

/** An address of this machine other than loopback, if it has one. */
const outsideAddress = (): string | undefined =>
  Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('probes and metrics by default', () => {
  let bus: TestBus;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    bus = await openTestBus('in-process', 'gwinternaldefault');
    upstream = await startFakeUpstream(SECRET);
  });
  afterAll(async () => {
    await upstream?.close();
    await bus?.close();
  });

  it('are never on the public port, and are on port 8081 of loopback unless configured otherwise', async () => {
    expect(loadConfig(GatewayConfig, {})).toMatchObject({ INTERNAL_PORT: 8081, INTERNAL_HOST: '127.0.0.1' });
    // A free port instead of 8081 (tests run side by side); the host is the default.
    const gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { INTERNAL_PORT: '0' } });
    try {
      for (const path of ['/metrics', '/health/ready', '/health/live']) expect([path, (await fetch(`${gateway.url}${path}`)).status]).toEqual([path, 404]);
      expect(gateway.internalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${gateway.internalUrl}/metrics`)).status).toBe(200);
      expect((await fetch(`${gateway.internalUrl}/health/ready`)).status).toBe(200);
      const outside = outsideAddress();
      if (outside) {
        const port = new URL(gateway.internalUrl).port;
        await expect(fetch(`http://${outside}:${port}/metrics`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
      }
    } finally {
      await gateway.close();
    }
  });

  it('report not ready until the public port listens, which opens after the probes', async () => {
    const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent', INTERNAL_PORT: '0' });
    const app = await createGateway({ config, logger: createLogger('gateway-test', 'silent'), bus: bus.gateway, services: { auth: upstream.url }, identitySecret: SECRET, routes: [] });
    try {
      const internalUrl = internalUrlOf(app)!;
      const before = await fetch(`${internalUrl}/health/ready`);
      expect([before.status, await before.json()]).toEqual([503, expect.objectContaining({ checks: { bus: 'up', listening: 'down' } })]);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const after = await fetch(`${internalUrl}/health/ready`);
      expect([after.status, await after.json()]).toEqual([200, { status: 'ok', checks: { bus: 'up', listening: 'up' } }]);
    } finally {
      await app.close();
    }
  });

  it('listen on every address when INTERNAL_HOST says so (Kubernetes)', async () => {
    const outside = outsideAddress();
    const gateway = await startGateway({ bus: bus.gateway, services: { auth: upstream.url }, env: { INTERNAL_PORT: '0', INTERNAL_HOST: '0.0.0.0' } });
    try {
      const port = new URL(gateway.internalUrl).port;
      expect((await fetch(`http://${outside ?? '127.0.0.1'}:${port}/metrics`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
