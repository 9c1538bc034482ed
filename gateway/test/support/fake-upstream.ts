import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { verifyIdentity } from '@timeliner/platform';
import Fastify, { type FastifyInstance } from 'fastify';

/** 100 known bytes, served with Range support by `/api/auth/file`. */
export const FILE = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

export interface FakeUpstream {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * A stand-in for the auth service behind the gateway (the route table sends `/api/auth/*` to it):
 * it echoes what it received, hashes uploads as they stream, serves ranges, and can be slow.
 */
export async function startFakeUpstream(secret: string, openapi: object = {}): Promise<FakeUpstream> {
  const app = Fastify();
  // Like the real services' upload routes: the body arrives as a stream.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.get('/health/ready', async () => ({ status: 'ok' }));
  app.get('/openapi.json', async () => openapi);

  app.post('/api/auth/upload', async (request) => {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of request.body as Readable) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    return { bytes, sha256: hash.digest('hex') };
  });

  /** `n` made-up cards, as a JSON answer of any size. */
  app.get('/api/auth/items', async (request) => {
    const n = Number((request.query as { n?: string }).n ?? 1);
    return Array.from({ length: n }, (_, i) => ({ id: i, title: `Item number ${i}`, description: 'The same few words in every item, as real answers repeat their field names' }));
  });

  app.get('/api/auth/file', async (request, reply) => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (!range) return reply.header('accept-ranges', 'bytes').type('application/octet-stream').send(FILE);
    const [start, end] = [Number(range[1]), Number(range[2])];
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${FILE.length}`)
      .header('accept-ranges', 'bytes')
      .type('application/octet-stream')
      .send(FILE.subarray(start, end + 1));
  });

  app.get('/api/auth/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return { slow: true };
  });

  app.all('/api/*', async (request) => {
    if (request.body) for await (const _chunk of request.body as Readable);
    const requestId = String(request.headers['x-request-id']);
    return {
      method: request.method,
      url: request.url,
      headers: request.headers,
      identity: verifyIdentity(secret, request.headers, { requestId, method: request.method, url: request.url }),
    };
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
}

/** A URL where nothing listens. */
export async function closedPortUrl(): Promise<string> {
  const probe = Fastify();
  await probe.listen({ port: 0, host: '127.0.0.1' });
  const { port } = probe.server.address() as AddressInfo;
  await probe.close();
  return `http://127.0.0.1:${port}`;
}
