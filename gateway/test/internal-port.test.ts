import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
