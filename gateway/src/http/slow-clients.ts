import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody, type Logger } from '@timeliner/platform';

export interface SlowClientOptions {
  /** Length of the window over which a request body must make progress (BODY_TIMEOUT_SECONDS). */
  windowMs: number;
  /** Bytes per second a body must average over each window (BODY_MIN_BYTES_PER_SECOND). */
  minBytesPerSecond: number;
  /** Open connections one client address may hold; 0 for no limit (MAX_CONNECTIONS_PER_ADDRESS). */
  maxConnectionsPerAddress: number;
  logger: Logger;
  /** How often bodies are checked; default a fifth of the window. */
  checkEveryMs?: number;
}

interface Watched {
  request: FastifyRequest;
  response: ServerResponse;
  socket: Socket;
  /** socket.bytesRead at the start of the current window. */
  windowStartBytes: number;
  windowStartedAt: number;
}

/**
 * Guards the gateway against clients that hold connections without sending anything.
 *
 * Request bodies: every request with a body must deliver at least `minBytesPerSecond` averaged
 * over each `windowMs` (default 1 KiB/s over 30 s: a phone uploading 2 GB at 100 KiB/s passes
 * easily, a client that announces 100 bytes and goes silent is cut after one window). Time when
 * the gateway itself stops reading (the service behind it is slow to take the bytes, so the
 * socket is paused by back-pressure) does not count against the client. A body too slow gets 408
 * and the connection is closed, which also ends the upstream request it was feeding: a silent
 * client never holds a connection to a service.
 *
 * Connections: at most `maxConnectionsPerAddress` open sockets per client address (counted on
 * the socket's own address, so it is off behind a trusted proxy, where the ingress limits
 * connections per client instead).
 */
export function guardSlowClients(fastify: FastifyInstance, server: Server, options: SlowClientOptions): void {
  const { windowMs, minBytesPerSecond, logger } = options;
  const watched = new Set<Watched>();
  const minBytesPerWindow = Math.ceil((minBytesPerSecond * windowMs) / 1000);

  fastify.addHook('onRequest', (request, reply, done) => {
    if (hasBody(request)) {
      const socket = request.raw.socket;
      const entry: Watched = { request, response: reply.raw, socket, windowStartBytes: socket.bytesRead, windowStartedAt: Date.now() };
      watched.add(entry);
      const forget = () => watched.delete(entry);
      request.raw.once('end', forget);
      request.raw.once('close', forget);
    }
    done();
  });

  const check = () => {
    const now = Date.now();
    for (const entry of watched) {
      const { request, response, socket } = entry;
      if (request.raw.complete || socket.destroyed) {
        watched.delete(entry);
        continue;
      }
      // Back-pressure from our side (the upstream is not taking the bytes): not the client's fault.
      if (socket.isPaused() || request.raw.isPaused() || request.raw.readableLength > 0) {
        entry.windowStartBytes = socket.bytesRead;
        entry.windowStartedAt = now;
        continue;
      }
      if (now - entry.windowStartedAt < windowMs) continue;
      const received = socket.bytesRead - entry.windowStartBytes;
      if (received >= minBytesPerWindow) {
        entry.windowStartBytes = socket.bytesRead;
        entry.windowStartedAt = now;
        continue;
      }
      watched.delete(entry);
      logger.warn({ requestId: request.id, clientIp: request.ip, received, windowMs }, 'request body too slow; connection closed');
      // The request stream ends in an error, which ends the upstream request it feeds; then the socket goes.
      const cut = () => {
        request.raw.destroy(new Error('request body too slow'));
        socket.destroy();
      };
      if (!response.headersSent && !response.destroyed) {
        const body = JSON.stringify(errorBody(408, 'The request body arrived too slowly; connection closed'));
        response.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
        response.end(body, cut);
        setTimeout(cut, 1000).unref();
      } else cut();
    }
  };
  const timer = setInterval(check, options.checkEveryMs ?? Math.max(200, Math.floor(windowMs / 5)));
  timer.unref();
  fastify.addHook('onClose', async () => clearInterval(timer));

  if (options.maxConnectionsPerAddress > 0) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? 'unknown';
      const count = (open.get(address) ?? 0) + 1;
      if (count > options.maxConnectionsPerAddress) {
        logger.warn({ clientIp: address, limit: options.maxConnectionsPerAddress }, 'too many connections from one address; refused');
        socket.destroy();
        return;
      }
      open.set(address, count);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
}

const hasBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
};

