import { type Logger, REQUEST_ID_HEADER, runWithContext } from '@timeliner/platform';
import type { FastifyInstance } from 'fastify';

/**
 * Every request carries its id (the client's, if it looks like one, else a new one) in the
 * response, the upstream request and every log line written while it runs.
 */
export function addRequestContext(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    runWithContext({ requestId: request.id }, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const entry = { requestId: request.id, method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (reply.statusCode >= 500) logger.error(entry, 'request failed');
    else logger.debug(entry, 'request');
    done();
  });
}
