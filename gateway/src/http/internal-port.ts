import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** What only operators and the orchestrator reach: probes and metrics. */
export const INTERNAL_PATHS = ['/metrics', '/health/live', '/health/ready'] as const;
const MARK_HEADER = 'x-tl-internal-probe';

/**
 * `/metrics` and `/health/*` are answered on the internal port (INTERNAL_PORT on INTERNAL_HOST,
 * loopback by default) only: the public port says 404 for them, so nobody who reaches the product
 * reads the metrics or makes the gateway run its readiness checks. The internal server hands each
 * request to the application in-process, marked with a per-process secret the public port never
 * sees, so the answers are exactly those of the usual routes.
 */
export function restrictInternalPaths(fastify: FastifyInstance): { mark: string } {
  const mark = randomBytes(24).toString('base64url');
  fastify.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if ((INTERNAL_PATHS as readonly string[]).includes(path) && request.headers[MARK_HEADER] !== mark) {
      return reply.code(404).type('application/json; charset=utf-8').send({ statusCode: 404, error: 'Not Found', message: `Cannot GET ${path}` });
    }
  });
  return { mark };
}

const internalUrls = new WeakMap<object, string>();

/** Where a gateway made by createGateway serves its probes and metrics, e.g. `http://127.0.0.1:8081`. */
export function internalUrlOf(app: object): string | undefined {
  return internalUrls.get(app);
}

/** Serves the internal paths on their own port; anything else is 404 there. Returns its URL. */
export async function listenInternal(fastify: FastifyInstance, mark: string, port: number, host: string, owner?: object): Promise<string> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method !== 'GET' || !(INTERNAL_PATHS as readonly string[]).includes(path)) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ statusCode: 404, error: 'Not Found', message: `Cannot ${req.method} ${path}` }));
      return;
    }
    fastify
      .inject({ method: 'GET', url: path, headers: { [MARK_HEADER]: mark } })
      .then((answer) => {
        const type = answer.headers['content-type'];
        res.writeHead(answer.statusCode, type ? { 'content-type': String(type) } : {}).end(answer.rawPayload);
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  fastify.addHook('onClose', async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${typeof address === 'object' && address ? address.port : port}`;
  if (owner) internalUrls.set(owner, url);
  return url;
}
