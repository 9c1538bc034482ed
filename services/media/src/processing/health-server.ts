import { createServer, type Server } from 'node:http';
import { HealthController } from '@timeliner/platform';
import type { Registry } from 'prom-client';

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The worker has no API: a tiny HTTP server for the probes and Prometheus. */
export function listenHealth(worker: { healthChecks: Record<string, () => Promise<boolean>>; registry: Registry }, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    const send = (status: number, body: string, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET') return send(405, JSON.stringify({ statusCode: 405, error: 'Method Not Allowed', message: 'GET only' }));
    if (path === '/health/live') return send(200, JSON.stringify({ status: 'ok' }));
    if (path === '/health/ready') {
      const names = Object.keys(worker.healthChecks);
      void Promise.all(names.map((name) => runCheck(worker.healthChecks[name]!))).then((results) => {
        const checks = Object.fromEntries(names.map((name, i) => [name, results[i] ? 'up' : 'down']));
        const ok = !HealthController.shuttingDown && results.every(Boolean);
        send(ok ? 200 : 503, JSON.stringify({ status: ok ? 'ok' : HealthController.shuttingDown ? 'shutting-down' : 'unavailable', checks }));
      });
      return;
    }
    if (path === '/metrics') {
      void worker.registry.metrics().then(
        (text) => send(200, text, worker.registry.contentType),
        () => send(500, JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'metrics failed' })),
      );
      return;
    }
    send(404, JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Not found' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
